# A 3.x function using the scope and another function.
module Puppet::Parser::Functions
  newfunction(:hatch_legacy, type: :rvalue) do |args|
    "#{lookupvar('greeting')} #{call_function('upcase', [args[0]])}"
  end
end
