module Puppet::Parser::Functions
  newfunction(:th_set) do |args|
    setvar(args[0], args[1])
  end
end
