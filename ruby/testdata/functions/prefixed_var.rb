# A 3.x test function that reads the calling scope.
module Puppet::Parser::Functions
  newfunction(:prefixed_var, :type => :rvalue, :arity => -2, :doc => <<-EOS
    Returns the variable named by the first argument, prefixed
    with the second argument ("x" by default).
    EOS
  ) do |args|
    name = args[0]
    raise(Puppet::ParseError, "prefixed_var(): name must be a String") unless name.is_a?(String)
    value = lookupvar(name)
    return 'none' if value.nil? || value == :undefined
    prefix = args[1]
    prefix = 'x' if prefix.nil? || prefix == ''
    "#{prefix}-#{value}"
  end
end
