# Feeds rspec-puppet's coverage bookkeeping (Coverage#add_from_catalog) the
# catalogs of many builds, with filters of names and patterns, classes of
# other modules and resources declared in and out of the module's
# manifests, and prints what it keeps, for TestCoverageFilters; run with
# the adapter on and off, the lines must be the same. The last line
# counts the searches of the filter list.
require 'rspec-puppet'

$searches = 0
Array.prepend(Module.new do
  def include?(x)
    $searches += 1 if equal?(RSpec::Puppet::Coverage.instance.filters)
    super
  end
end)

adapter = Object.new
def adapter.modulepath
  ['/mods', '/more']
end

def adapter.manifest
  '/site/site.pp'
end
RSpec.configuration.adapter = adapter

cov = RSpec::Puppet::Coverage.instance
cov.add_filter('demo', 'demo')
cov.add_filter_regex('File', %r{^/tmp/skip})

def res(type, title, file = nil)
  r = Puppet::Resource.new(type, title)
  r.file = file
  r
end

30.times do |i|
  catalog = Puppet::Resource::Catalog.new('node')
  [
    res('Stage', 'main'), res('Class', 'main'), res('Class', 'Settings'),
    res('Class', 'Demo'), res('Class', 'Other'), res('Class', "Demo::Part#{i % 3}"),
    res('File', "/etc/demo#{i % 5}", '/mods/demo/manifests/init.pp'),
    res('File', "/etc/outside#{i}", '/mods/other/manifests/init.pp'),
    res('File', "/tmp/skip#{i}", '/mods/demo/manifests/init.pp'),
    res('Exec', "run #{i % 4}", '/site/site.pp'),
    res('Package', 'nofile'),
    res('Demo::Thing', "t#{i % 2}", '/more/demo/manifests/thing.pp'),
  ].each { |r| catalog.add_resource(r) }
  cov.add_filter('Demo::Thing', "t#{i % 2}") if i.even?
  cov.add_filter('demo::part1', 'x') if i == 7
  cov.add_from_catalog(catalog, 'demo')
end
searched = $searches
puts "kept: #{cov.results[:resources].keys.sort.join(' ')}" rescue nil
puts "collection: #{cov.instance_variable_get(:@collection).keys.sort.join(' ')}"
puts "filters: #{cov.filters.size}"
puts "searches of the filter list: #{searched}"
