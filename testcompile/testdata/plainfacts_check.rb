# Converts fact sets to JSON data through the adapter
# (MarionetteRspec.plain_facts) and prints how many values each conversion
# converted and its result, for TestPlainFacts.
require 'rspec-puppet'
require 'json'

$converted = 0
MarionetteRspec.singleton_class.prepend(Module.new do
  def plain(v)
    $converted += 1
    super
  end
end)
steps = []
convert = lambda do |label, facts|
  $converted = 0
  out = MarionetteRspec.plain_facts(facts)
  steps << "#{label}=#{$converted}:#{JSON.generate(out)}"
end
a = { os: { 'family' => 'Debian', release: { 'major' => 12 } }, 'x' => :undef, 'y' => [:sym, nil] }
convert.call('first', a)
convert.call('equal', Marshal.load(Marshal.dump(a)))
convert.call('other', a.merge('x' => 'set'))
a2 = a.merge('x' => 'set')
a2[:os] = a2[:os].merge('family' => 'RedHat')
convert.call('nested', a2)
puts "steps: #{steps.join(' ')}"
