# Three times the number given.
Puppet::Functions.create_function(:'demo::triple') do
  dispatch :triple do
    param 'Numeric', :n
  end

  def triple(n)
    n * 3
  end
end
