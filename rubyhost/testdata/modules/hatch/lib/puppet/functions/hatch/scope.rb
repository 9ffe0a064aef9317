# Uses the scope beyond variables: to_hash, and the catalog when asked.
Puppet::Functions.create_function(:'hatch::scope', Puppet::Functions::InternalFunction) do
  dispatch :scope do
    scope_param
    param 'String', :what
  end

  def scope(scope, what)
    case what
    when 'hash' then scope.to_hash
    when 'catalog' then scope.catalog.edges.size
    when 'motd' then [scope.catalog.resource('File', '/etc/motd')[:ensure], scope.findresource('File[/etc/motd]').title, scope.catalog.resource('File', '/nope')]
    when 'change' then scope.catalog.resource('File', '/etc/motd')[:ensure] = 'absent'
    when 'resource' then scope.resource.to_hash
    end
  end
end
