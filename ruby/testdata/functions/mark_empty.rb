# A 3.x test function: shows how undef arguments arrive.
module Puppet::Parser::Functions
  newfunction(:mark_empty, :type => :rvalue) do |args|
    args.map { |a| a == '' ? 'empty' : (a.nil? ? 'nil' : a) }
  end
end
