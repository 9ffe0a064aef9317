# Lists the catalog's resources so far (catalog.resources), each as
# "Type[title] param=value ...".
Puppet::Functions.create_function(:'hatch::list_resources', Puppet::Functions::InternalFunction) do
  dispatch :list_resources do
    scope_param
  end

  def list_resources(scope)
    scope.catalog.resources.map do |r|
      ([r.to_s] + r.to_hash.reject { |k, _| k == :name }.sort.map { |k, v| "#{k}=#{v}" }).join(' ')
    end
  end
end
