# Returns its arguments, for checking values cross to Ruby and back.
Puppet::Functions.create_function(:'hatch::echo') do
  dispatch :echo do
    repeated_param 'Any', :args
  end

  def echo(*args)
    args
  end
end
