# A 4.x test function whose dispatches select methods by argument type.
Puppet::Functions.create_function(:two_dispatch) do
  dispatch :from_string do
    param 'String', :s
  end
  dispatch :from_int do
    param 'Integer', :i
  end

  def from_string(s)
    s
  end

  def from_int(i)
    i.to_s
  end
end
