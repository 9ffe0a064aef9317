Puppet::Functions.create_function(:'sv::set4', Puppet::Functions::InternalFunction) do
  dispatch :set do
    scope_param
    param 'String', :name
    param 'Any', :value
  end
  def set(scope, name, value)
    scope.setvar(name, value)
    scope.compiler.topscope.setvar('fromtop4', scope.lookupvar(name) * 10)
    nil
  end
end
