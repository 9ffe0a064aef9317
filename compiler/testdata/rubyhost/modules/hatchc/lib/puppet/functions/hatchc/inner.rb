# Uses a Ruby lambda, which the subset does not run.
Puppet::Functions.create_function(:'hatchc::inner') do
  def inner(x)
    up = ->(s) { s.upcase }
    up.call(x)
  end
end
