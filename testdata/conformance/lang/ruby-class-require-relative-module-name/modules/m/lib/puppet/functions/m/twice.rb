require_relative File.join('..', '..', 'util', 'm_helper')

Puppet::Functions.create_function(:'m::twice') do
  dispatch :twice do
    required_param 'String', :s
  end

  def twice(s)
    Puppet::Util::MHelper.twice(s)
  end
end
