require 'puppet/parser/functions'

# A 3.x test function that calls another function through function_double.
module Puppet::Parser::Functions
  newfunction(:double_all, :type => :rvalue, :arity => 1, :doc => <<~DOC) do |args|
    Doubles every element of an array.
  DOC
    list = args[0]
    list = [list] unless list.is_a?(Array)
    begin
      raise Puppet::ParseError, 'not numbers' unless list.all? { |x| x.is_a?(Integer) }
      list.map { |x| function_double([x]) }
    rescue Puppet::ParseError
      'not numbers'
    end
  end
end
