Puppet::Functions.create_function(:'m::twice') do
  def twice(x)
    double = ->(v) { return v * 2 }
    [x].map(&double).first.to_s + (double.lambda? ? ' lambda' : ' proc')
  end
end
