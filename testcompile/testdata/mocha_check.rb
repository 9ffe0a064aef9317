# Runs an RSpec suite that mocks with Mocha, its checks off (the default)
# in ten examples that stub and on in one more, with the adapter's
# MochaChecks left to the suite hook that installs them, and prints how
# many backtraces the allowed stubs took, what a prevented one raises (its
# class, message and where its backtrace starts) and whether the hook
# installed the checks, for TestMochaChecks.
require 'rspec-puppet'
require 'mocha/api'

RSpec.configure { |c| c.mock_with :mocha }

class Thing
  def size = 1
end

$backtraces = 0
$trace = TracePoint.new(:c_call) { |tp| $backtraces += 1 if tp.method_id == :caller }
prevented = nil

RSpec.describe 'stubs with the checks off' do
  before(:all) { $trace.enable }
  after(:all) { $trace.disable }
  10.times do |i|
    it("stubs #{i}") { Thing.new.stubs(:size).returns(2) }
  end
end

RSpec.describe 'a stub a check prevents' do
  before { Mocha.configure { |c| c.stubbing_non_existent_method = :prevent } }
  after { Mocha.configure { |c| c.stubbing_non_existent_method = :allow } }
  it 'raises' do
    Thing.stubs(:colour)
    prevented = 'nothing raised'
  rescue Exception => e # rubocop:disable Lint/RescueException
    prevented = "#{e.class}: #{e.message} at #{e.backtrace.first[/:\d+:/]}"
  end
end

status = RSpec::Core::Runner.run([], $stderr, $stderr)
puts "allowed: backtraces=#{$backtraces}"
puts "prevented: #{prevented}"
installed = defined?(MarionetteRspec::MochaChecks) && Mocha::Mockery < MarionetteRspec::MochaChecks
puts "installed: #{installed ? true : false}"
exit status
