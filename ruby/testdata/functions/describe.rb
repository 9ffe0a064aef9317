# A 4.x test function: describes its argument, through a helper method.
Puppet::Functions.create_function(:'mytest::describe') do
  dispatch :describe_value do
    param 'Any', :value
  end

  def describe_value(value)
    helper(value)
  end

  def helper(v)
    return 'nil' if v.nil?
    unless v.is_a?(String)
      return "#{v.class}: #{v.inspect}"
    end
    v.upcase
  end
end
