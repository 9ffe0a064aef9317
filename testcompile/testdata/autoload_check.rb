# Loads plugins through Puppet's autoloader, with the adapter on or off,
# and prints what Puppet's loading leaves behind (the files recorded as
# loaded, by Ruby and by the autoloader; a second require of a loaded type
# doing nothing; a plugin that raises) and how many times $LOADED_FEATURES
# was changed by hand (which makes Ruby rebuild its index of loaded
# features at the next require), for TestAutoloadFeatures.
require 'tmpdir'
require 'rspec-puppet'

require_relative 'puppet_setup'
helper = Puppet::Test::TestHelper
helper.before_each_test

$by_hand = 0
changes = %i[<< push append unshift prepend insert concat replace clear delete delete_at delete_if reject! select! keep_if
             map! collect! uniq! compact! flatten! sort! sort_by! shuffle! reverse! rotate! fill pop shift slice! []=]
TracePoint.new(:c_call) do |tp|
  $by_hand += 1 if changes.include?(tp.method_id) && tp.self.equal?($LOADED_FEATURES)
end.enable

dir = Dir.mktmpdir
lib = File.join(dir, 'lib')
FileUtils.mkdir_p(File.join(lib, 'puppet', 'type'))
File.write(File.join(lib, 'puppet', 'type', 'marionette_broken.rb'), "raise 'broken on purpose'\n")
File.write(File.join(lib, 'puppet', 'type', 'marionette_fine.rb'), <<~RUBY)
  $marionette_fine_loads = ($marionette_fine_loads || 0) + 1
  Puppet::Type.newtype(:marionette_fine) { newparam(:name, namevar: true) }
RUBY
$LOAD_PATH.unshift(lib)

before = $LOADED_FEATURES.size
package = Puppet::Type.type(:package)
fine = Puppet::Type.type(:marionette_fine)
again = require('puppet/type/marionette_fine')
# A plugin that raises is recorded by hand (as Puppet records it): the
# count is of the loads that work.
by_hand = $by_hand
broken = begin
  Puppet::Type.type(:marionette_broken)
  'no error'
rescue Exception => e # rubocop:disable Lint/RescueException
  "#{e.class}: #{e.message.lines.first.strip}"
end
recorded = Puppet::Util::Autoload.loaded.select { |name, _| name.start_with?('puppet/type/', 'puppet/provider/package/') }
missing = recorded.reject { |_, (file, _)| $LOADED_FEATURES.include?(file) }.keys
broken_file = File.join(lib, 'puppet', 'type', 'marionette_broken.rb')

puts "by hand: #{by_hand}"
puts "loaded: package=#{!package.nil?} apt=#{!package.provider(:apt).nil?} fine=#{!fine.nil?} loads=#{$marionette_fine_loads} again=#{again}"
puts "recorded: #{recorded.size > 10} missing=#{missing.sort.join(',')} new_features=#{$LOADED_FEATURES.size - before > 10}"
puts "broken: #{broken} recorded=#{$LOADED_FEATURES.include?(broken_file)} autoloader=#{Puppet::Util::Autoload.loaded?('puppet/type/marionette_broken')}"
FileUtils.rm_rf(dir)
