# Calls inner, whose Ruby is beyond the subset.
Puppet::Functions.create_function(:'hatchc::outer') do
  def outer(x)
    "outer(#{call_function('hatchc::inner', x)})"
  end
end
