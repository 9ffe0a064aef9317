Puppet::Functions.create_function(:'api::info4', Puppet::Functions::InternalFunction) do
  dispatch :info do
    scope_param
    param 'String', :spec
  end
  def info(scope, spec)
    t = Puppet::Pops::Types::TypeParser.singleton.parse(spec)
    [t.instance?(2), t.instance?(5), t.instance?('2'), t.to_s, scope.find_hostclass('api::extra').name, scope.compiler.environment.name.to_s]
  end
end
