# frozen_string_literal: true

# demo_halve: half of an even Integer; the test suite checks that the Ruby
# exception classes it raises reach rspec-puppet's raise_error matchers.
module Puppet::Parser::Functions
  newfunction(:demo_halve, type: :rvalue) do |args|
    raise(ArgumentError, "demo_halve(): Wrong number of arguments given (#{args.size} for 1)") unless args.size == 1
    n = args[0]
    raise(TypeError, "demo_halve(): expects an Integer, got #{n.class}") unless n.is_a?(Integer)
    raise(Puppet::ParseError, 'demo_halve(): odd number') if n.odd?
    n / 2
  end
end
