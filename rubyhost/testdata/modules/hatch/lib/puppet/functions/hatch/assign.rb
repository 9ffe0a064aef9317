# Assigns variables in the calling scope and in top scope, as role()
# functions of real sites do.
Puppet::Functions.create_function(:'hatch::assign', Puppet::Functions::InternalFunction) do
  dispatch :assign do
    scope_param
    param 'String', :name
    param 'Any', :value
  end

  def assign(scope, name, value)
    scope.setvar(name, value)
    scope.compiler.topscope.setvar("top_#{name}", value)
    scope.compiler.topscope["also_#{name}"] = value
    [scope.compiler.topscope['top_' + name], scope.compiler.topscope.to_hash.keys.sort]
  end
end
