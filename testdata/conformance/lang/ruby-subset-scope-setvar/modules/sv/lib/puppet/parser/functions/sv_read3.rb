module Puppet::Parser::Functions
  newfunction(:sv_read3, :type => :rvalue) do |args|
    [lookupvar(args[0]), lookupvar("#{args[0]}_bracket")].join('/')
  end
end
