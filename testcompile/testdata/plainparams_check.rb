# Loads a catalog of plain and rich parameters with the adapter's
# catalog_from, and converts the same parameters with Puppet's own
# FromDataConverter, for TestPlainParameters: prints whether each
# resource's parameters are the same (inspect, classes, the leaf objects
# shared as Puppet's conversion shares them) and how many builder objects
# the plain resources' conversion made.
require 'rspec-puppet'
require 'json'

Puppet.initialize_settings
env = Puppet::Node::Environment.create(:rp_env, [])
Puppet.push_context(current_environment: env, loaders: Puppet::Pops::Loaders.new(env))

$builders = 0
Puppet::Pops::Serialization::Builder.prepend(Module.new do
  def initialize(*args)
    $builders += 1
    super
  end
end)

params = {
  'plain' => { 'ensure' => 'present', 'n' => 3, 'f' => 1.5, 'b' => false, 'u' => nil,
               'list' => ['a', ['b', { 'c' => [1, 2] }], nil], 'h' => { 'k' => { 'deep' => ['x'] }, 'e' => {} } },
  'deferred' => { 'content' => { '__ptype' => 'Deferred', 'name' => 'join', 'arguments' => [['a', 'b'], '-'] },
                  'plain' => ['x'] },
  'sensitive' => { 'password' => { '__ptype' => 'Sensitive', '__pvalue' => 'secret' }, 'other' => { 'a' => 1 } },
  'nested_rich' => { 'h' => { 'list' => [1, { '__ptype' => 'Default' }] } },
  'ptype_number' => { 'h' => { '__ptype' => 5, 'x' => 'y' } },
}
data = {
  'tags' => ['settings'], 'name' => 'node', 'version' => 1, 'code_id' => nil, 'catalog_uuid' => 'u', 'catalog_format' => 2,
  'environment' => 'rp_env', 'classes' => [], 'edges' => [],
  'resources' => params.map { |title, p| { 'type' => 'Notify', 'title' => title, 'tags' => ['notify'], 'exported' => false, 'parameters' => p } },
}

def shape(v)
  case v
  when Hash then "{#{v.map { |k, e| "#{k.inspect}(#{k.class},#{k.frozen?})=>#{shape(e)}" }.join(',')}}"
  when Array then "[#{v.map { |e| shape(e) }.join(',')}]"
  when Puppet::Pops::Types::TypeFactory.deferred.implementation_class then "Deferred(#{v.name},#{shape(v.arguments)})"
  else "#{v.inspect}:#{v.class}"
  end
end

# leaves are the leaf objects of v, in order.
def leaves(v, out = [])
  case v
  when Hash then v.each_value { |e| leaves(e, out) }
  when Array then v.each { |e| leaves(e, out) }
  else out << v
  end
  out
end

source = JSON.parse(JSON.generate(data))
catalog = MarionetteRspec.catalog_from(source)
source.fetch('resources').each do |r|
  title = r['title']
  ours = catalog.resource('Notify', title).to_hash.reject { |k, _| k == :name }
  want = Puppet::Pops::Serialization::FromDataConverter.convert(r['parameters']).transform_keys(&:to_sym)
  same_leaves = leaves(ours).zip(leaves(r['parameters'])).all? { |a, b| !a.is_a?(String) || a.equal?(b) } ==
                leaves(want).zip(leaves(r['parameters'])).all? { |a, b| !a.is_a?(String) || a.equal?(b) }
  puts "#{title}: same=#{shape(ours) == shape(want)} leaves=#{same_leaves}"
end
$builders = 0
MarionetteRspec.catalog_from(JSON.parse(JSON.generate(data.merge('resources' => data['resources'].first(1)))))
puts "builders for the plain resource: #{$builders}"
