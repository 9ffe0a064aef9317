# Loads catalogs with the adapter's catalog_from whose resources share tag
# lists (upper case, '::' names, repeats, an invalid tag), and prints each
# resource's tags as Puppet's Tagging leaves them (the set's class, its
# order, frozen strings, a set of its own), for TestCatalogTags; run with
# the adapter on and off, the lines must be the same. The last line counts
# Puppet's tag checks.
require 'rspec-puppet'
require 'json'

Puppet.initialize_settings
env = Puppet::Node::Environment.create(:rp_env, [])
Puppet.push_context(current_environment: env, loaders: Puppet::Pops::Loaders.new(env))

$checks = 0
Puppet::Resource.prepend(Module.new do
  def valid_tag?(*args)
    $checks += 1
    super
  end
end)

lists = [
  %w[notify Class Demo::Part demo part],
  %w[notify class demo::part demo part],
  %w[notify Demo::Deep::Name extra extra],
  %w[notify],
  [],
]
catalog_data = lambda do |with_bad|
  resources = (0...12).map do |i|
    { 'type' => 'Notify', 'title' => "n#{i}", 'tags' => lists[i % lists.size], 'exported' => false, 'parameters' => { 'message' => 'x' } }
  end
  resources << { 'type' => 'Notify', 'title' => 'bad', 'tags' => ['notify', 'not a tag!'], 'exported' => false } if with_bad
  { 'tags' => ['settings'], 'name' => 'node', 'version' => 1, 'catalog_format' => 2, 'environment' => 'rp_env',
    'classes' => [], 'edges' => [], 'resources' => resources }
end

seen = {}
2.times do |round|
  catalog = MarionetteRspec.catalog_from(JSON.parse(JSON.generate(catalog_data.call(false))))
  catalog.resources.select { |r| r.type == 'Notify' }.each do |r|
    tags = r.tags
    fresh = tags.none? { |x| seen.key?(tags.object_id) } && !seen.key?(tags.object_id)
    seen[tags.object_id] = true
    puts "#{round} #{r}: #{tags.class} #{tags.to_a.inspect} frozen=#{tags.all?(&:frozen?)} own=#{fresh}"
  end
end
2.times do
  begin
    MarionetteRspec.catalog_from(JSON.parse(JSON.generate(catalog_data.call(true))))
    puts 'bad: loaded'
  rescue StandardError => e
    puts "bad: #{e.class}: #{e.message}"
  end
end
$checks = 0
MarionetteRspec.catalog_from(JSON.parse(JSON.generate(catalog_data.call(false))))
puts "tag checks: #{$checks}"
