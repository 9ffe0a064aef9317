# Loads a catalog as marionette's test service returns it through the
# adapter (MarionetteRspec.catalog_from) and prints how many times the
# environment's known resource types (Puppet's parse of the code and
# manifests) were asked for, and the type of each resource, for
# TestCatalogBareTypes.
require 'rspec-puppet'

require_relative 'puppet_setup'
helper = Puppet::Test::TestHelper
helper.before_each_test
$asked = 0
Puppet::Node::Environment.prepend(Module.new do
  def known_resource_types
    $asked += 1
    super
  end
end)
data = {
  'tags' => ['settings'], 'name' => 'node.example.com', 'version' => 1, 'code_id' => nil,
  'catalog_uuid' => 'x', 'catalog_format' => 1, 'environment' => 'production',
  'resources' => [
    { 'type' => 'Stage', 'title' => 'main', 'tags' => %w[stage], 'exported' => false, 'parameters' => { 'name' => 'main' } },
    { 'type' => 'Class', 'title' => 'Settings', 'tags' => %w[class settings], 'exported' => false },
    { 'type' => 'Class', 'title' => 'main', 'tags' => %w[class], 'exported' => false, 'parameters' => { 'name' => 'main' } },
    { 'type' => 'Class', 'title' => 'Demo', 'tags' => %w[class demo], 'exported' => false, 'parameters' => { 'port' => 80 } },
    { 'type' => 'Demo::Thing', 'title' => 'x', 'tags' => %w[demo::thing demo thing x], 'exported' => false,
      'parameters' => { 'name' => 'x', 'mode' => '0644' } },
    { 'type' => 'Widget', 'title' => 'w', 'tags' => %w[widget w], 'exported' => false, 'kind' => 'defined_type',
      'parameters' => { 'name' => 'w', 'size' => 2 } },
    { 'type' => 'File', 'title' => '/tmp/x', 'tags' => %w[file], 'exported' => false, 'kind' => 'compilable_type',
      'parameters' => { 'ensure' => 'file' } },
  ],
  'edges' => [{ 'source' => 'Class[Demo]', 'target' => 'Demo::Thing[x]' }],
  'classes' => %w[settings demo],
}
# Each look for a Ruby type of a name Puppet has not loaded (the
# autoloader's search of every directory).
$searched = []
Puppet::Type.singleton_class.prepend(Module.new do
  def type(name)
    n = name.to_s.downcase.to_sym
    $searched << n unless name.to_s.include?(':') || @types&.include?(n)
    super
  end
end)
catalog = MarionetteRspec.catalog_from(data)
asked = $asked
hashes = [%w[Demo::Thing x], %w[Widget w]].map { |t, n| catalog.resource(t, n).to_hash.inspect }
types = catalog.resources.map do |r|
  t = r.resource_type
  what = t.is_a?(Puppet::Resource::Type) ? "#{t.type}:#{t.name}" : t.to_s
  "#{r.ref}=#{what}"
end
puts "asked: #{asked}"
puts "types: #{types.join(' ')}"
puts "hash: #{hashes.join(' ')}"
puts "searched: #{$searched.uniq.sort.join(',')}"
