# A 4.x test function using Ruby outside the supported subset.
Puppet::Functions.create_function(:clock) do
  def clock
    Time.now.year
  end
end
