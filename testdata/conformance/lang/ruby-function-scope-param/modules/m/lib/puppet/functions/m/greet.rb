Puppet::Functions.create_function(:'m::greet', Puppet::Functions::InternalFunction) do
  dispatch :greet do
    scope_param
    param 'String', :greeting
    optional_repeated_param 'String', :names
  end

  def greet(scope, greeting, *names)
    "#{greeting} #{names.join('+')} from #{scope['who']} (#{scope.lookupvar('::top')})"
  end
end
