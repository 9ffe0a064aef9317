# Checks the adapter's fact stubbing after a build (MarionetteRspec.stub_facts,
# rspec-puppet's stub_facts! when Facter may not hold the facts already):
# prints how many Facter.add calls each of a series of stubs made, and what
# Facter answers after each, for TestStubFacts.
require 'rspec-puppet'
require 'facter'

group = Object.new
group.extend(RSpec::Puppet::Support)
$adds = 0
Facter.singleton_class.prepend(Module.new do
  def add(*args, **kwargs, &block)
    $adds += 1
    super
  end
end)
steps = []
stub = lambda do |label, facts|
  $adds = 0
  MarionetteRspec.stub_facts(group, facts)
  steps << "#{label}=#{$adds}:#{Facter.value(:mfact).inspect}"
end
a = { 'mfact' => 'one', 'other' => { 'x' => [1, 2] } }
stub.call('first', a)
stub.call('same', Marshal.load(Marshal.dump(a)))
stub.call('changed', a.merge('mfact' => 'two'))
stub.call('back', a)
Facter.add(:unrelated) { setcode { 1 } }
stub.call('after_add', a)
Facter.search('/nonexistent/marionette/dir')
stub.call('after_missing_dir', a)
Facter.search(Dir.pwd)
stub.call('after_dir', a)
puts "steps: #{steps.join(' ')}"
