# A 4.x test function with optional parameters that calls another function.
Puppet::Functions.create_function(:pad) do
  def pad(str, width = 5, fill = '.')
    unless str.is_a?(String) || str.is_a?(Integer)
      raise Puppet::ParseError, "pad(): expected a String or Integer, got #{str.class}"
    end
    str = call_function('double', str).to_s if str.is_a?(Integer)
    str.ljust(width, fill)
  end
end
