module Puppet::Parser::Functions
  newfunction(:sv_set3) do |args|
    setvar(args[0], args[1])
    self["#{args[0]}_bracket"] = args[1] + '!'
    compiler.topscope.setvar('fromtop', "top-#{args[0]}") if args[0] == 'inclass'
  end
end
