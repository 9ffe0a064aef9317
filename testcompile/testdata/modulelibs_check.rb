# Runs rspec-puppet's per-example setup_puppet (the module path's */lib
# put on the load path) for a module path of two directories, before and
# after a module is added to one, and prints the libs each setup put on
# the load path and how many times Ruby's glob ran, for TestModuleLibs.
require 'tmpdir'
require 'fileutils'
require 'rspec-puppet'

root = Dir.mktmpdir
dirs = %w[a b].map { |d| File.join(root, d) }
%w[a/one/lib a/two/manifests b/three/lib].each { |d| FileUtils.mkdir_p(File.join(root, d)) }

# An example group's view of rspec-puppet's support code.
class Example
  include RSpec::Puppet::Support
  def initialize(dirs)
    @dirs = dirs
  end

  def adapter
    Struct.new(:modulepath).new(@dirs)
  end
end

$globs = 0
TracePoint.new(:call, :c_call) do |tp|
  $globs += 1 if %i[[] glob].include?(tp.method_id) && tp.defined_class == Dir.singleton_class
end.enable

$vardirs = []
require_relative 'puppet_setup'
helper = Puppet::Test::TestHelper
libs = lambda do
  helper.before_each_test
  before = $LOAD_PATH.dup
  vardir = Example.new(dirs).setup_puppet
  added = ($LOAD_PATH - before).map { |l| l.delete_prefix("#{root}/") }
  $vardirs << [File.dirname(vardir), File.directory?(vardir), Puppet[:vardir] == vardir, Dir.empty?(vardir)]
  FileUtils.rm_rf(vardir)
  helper.after_each_test
  added.join(',')
end
first = libs.call
globs_first = $globs
same = (1..5).map { libs.call }.uniq.join('|')
globs_same = $globs - globs_first
# A module added (its directory's mtime changes).
FileUtils.mkdir_p(File.join(root, 'b', 'four', 'lib'))
added = libs.call
puts "first: #{first} globs=#{globs_first}"
puts "again: #{same} globs=#{globs_same}"
puts "added: #{added}"
puts "vardirs: #{$vardirs.uniq.map { |d| d.join(',') }.join(' ')}"
puts "tmpdir: #{Dir.tmpdir}"
FileUtils.rm_rf(root)
