# Helper methods defined after the module, at the top level of the file (as
# puppetlabs-mysql's mysql_deepmerge does): the function's block calls them.
module Puppet::Parser::Functions
  newfunction(:helper_after_module, :type => :rvalue) do |args|
    result = {}
    args.each do |arg|
      overlay(result, arg)
    end
    result
  end
end

def overlay(hash1, hash2)
  hash2.each do |key, value|
    if hash1[key].is_a?(Hash) and value.is_a?(Hash)
      overlay(hash1[key], value)
    else
      hash1[key] = value
    end
  end
end
