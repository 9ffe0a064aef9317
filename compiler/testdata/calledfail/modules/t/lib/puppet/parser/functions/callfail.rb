module Puppet::Parser::Functions
  newfunction(:callfail, :type => :rvalue) do |args|
    function_fail(['boom'])
  end
end
