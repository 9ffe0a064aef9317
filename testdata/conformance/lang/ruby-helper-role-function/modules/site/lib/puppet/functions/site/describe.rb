require 'set'

# Describes the node from its facts and top scope, calling functions back.
Puppet::Functions.create_function(:'site::describe', Puppet::Functions::InternalFunction) do
  dispatch :describe do
    scope_param
    param 'String', :prefix
  end

  def describe(scope, prefix)
    info = Struct.new(:family, :role).new(scope['facts']['os']['family'], scope['::role'])
    up = call_function('upcase', info.family)
    joined = scope.function_sprintf(['%s-%s', prefix, info.role]) + scope.call_function('join', [['', 'x'], '+'])
    motd = scope.catalog.resource('File', '/etc/motd')
    [joined, up, closure_scope['role'], scope.exist?('role_tier'), Set.new([1, 2]), motd[:content], scope.findresource('File[/nope]').nil?]
  end
end
