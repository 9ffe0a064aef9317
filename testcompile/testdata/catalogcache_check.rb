# Drives rspec-puppet's catalog cache (RSpec::Puppet::Cache) as its catalog
# builds do, with arguments of plain data and of other kinds, and prints
# what each lookup answered and which builds ran, for TestCatalogCache; run
# with the adapter on and off, the lines must be the same. The last line
# counts the Marshal.dump calls of lookups of plain arguments.
require 'rspec-puppet'

$dumps = 0
Marshal.singleton_class.prepend(Module.new do
  def dump(*args)
    $dumps += 1
    super
  end
end)

built = []
cache = RSpec::Puppet::Cache.new do |*args|
  built << args.first[:nodename]
  "catalog of #{args.first[:nodename]}"
end
facts = { os: { 'family' => 'Debian', 'release' => { 'major' => '12' } }, 'n' => 1, 'f' => 1.5, 'list' => [:a, 'b', nil, true] }
args = ->(node, f = facts) { { nodename: node, facts_val: f, code: "include demo\n", ignored_cache_params: { hiera_data_value: nil, rspec_config_values: [nil, 'x', false] } } }

lines = []
look = lambda do |label, a, &blk|
  r = begin
    cache.get(a, &blk).inspect
  rescue StandardError => e
    "#{e.class}: #{e.message}"
  end
  lines << "#{label}: #{r} built=#{built.join(',')}"
end
look.call('first', args.call('a'))
look.call('same', args.call('a'))
look.call('equal copy', Marshal.load(Marshal.dump(args.call('a'))))
look.call('other facts', args.call('a', facts.merge('n' => 2)))
look.call('integer for float', args.call('a', facts.merge('f' => 2)))
look.call('float for integer', args.call('a', facts.merge('f' => 2.0)))
look.call('symbol for string', args.call('a', facts.merge('list' => [:a, :b, nil, true])))
17.times { |i| look.call("fill #{i}", args.call("n#{i}")) }
look.call('evicted', args.call('a'))
look.call('recent', args.call('n16'))
changing = args.call('changes')
look.call('changed by its build', changing) { |*a| a.first[:facts_val] = { 'changed' => true }; 'built' }
look.call('after the change', args.call('changes'))
look.call('object', args.call('obj', facts.merge('o' => Object.new)))
look.call('proc', args.call('proc', facts.merge('p' => -> {})))
look.call('nan', args.call('nan', facts.merge('x' => Float::NAN)))
look.call('nan again', args.call('nan', facts.merge('x' => Float::NAN)))
class DemoString < String; end
look.call('string subclass', args.call('sub', facts.merge('s' => DemoString.new('x'))))
look.call('default proc', args.call('dp', Hash.new { |h, k| h[k] = 1 }.merge!(facts)))
lines.each { |l| puts l }

$dumps = 0
5.times { cache.get(args.call('n15')) }
5.times { |i| cache.get(args.call("m#{i}")) }
puts "dumps of 10 plain lookups: #{$dumps}"
