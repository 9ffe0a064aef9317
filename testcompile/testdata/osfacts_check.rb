# Calls rspec-puppet-facts' on_supported_os again and again, changing what
# its answer depends on in between, and prints each answer's Marshal form
# (a digest) and whether it is a fresh copy, for TestOsFacts; run with the
# adapter on and off, the lines must be the same. The last line counts the
# Marshal.dump calls of repeated calls (the adapter keeps the form).
require 'rspec-puppet'
require 'rspec-puppet-facts'
require 'digest'
require 'tmpdir'
require 'fileutils'
include RspecPuppetFacts

$dumps = 0
Marshal.singleton_class.prepend(Module.new do
  def dump(*args)
    $dumps += 1
    super
  end
end)
MarionetteRspec::OsFacts.install if defined?(MarionetteRspec::OsFacts)

dir = Dir.mktmpdir
Dir.chdir(dir)
# A small FacterDB: a few of its own fact sets (both runs parse it; the
# whole database would take FacterDB's own queries minutes).
source = File.join(File.dirname(File.dirname(FacterDB.method(:default_fact_files).source_location.first)), 'facts')
%w[4.2/debian-11 4.2/redhat-8 3.14/debian-11 3.14/redhat-8 2.5/debian-11].each do |f|
  FileUtils.mkdir_p(File.join(dir, 'facts', File.dirname(f)))
  FileUtils.cp(File.join(source, "#{f}-x86_64.facts"), File.join(dir, 'facts', File.dirname(f)))
end
ENV['FACTERDB_SKIP_DEFAULTDB'] = 'yes'
ENV['FACTERDB_SEARCH_PATHS'] = File.join(dir, 'facts')
File.write('metadata.json', JSON.generate(
  'name' => 'demo-demo',
  'operatingsystem_support' => [
    { 'operatingsystem' => 'Debian', 'operatingsystemrelease' => %w[11 12] },
    { 'operatingsystem' => 'RedHat', 'operatingsystemrelease' => ['8'] },
  ],
))
# Quiet: the warnings of fact sets found for an older Facter.
def RspecPuppetFacts.warning(_message); end

def digest(h)
  Digest::SHA256.hexdigest(Marshal.dump(h))[0, 12]
end

# fresh? says whether b shares no object but immediates with a.
def fresh?(a, b)
  return true if a.is_a?(Symbol) || a.is_a?(Integer) || a.is_a?(Float) || a.nil? || a == true || a == false
  return false if a.equal?(b)
  case a
  when Hash then a.all? { |k, v| fresh?(v, b[k]) }
  when Array then a.each_with_index.all? { |v, i| fresh?(v, b[i]) }
  else true
  end
end

lines = []
step = lambda do |label, answer, before = nil|
  extra = before ? " fresh=#{fresh?(before, answer)}" : ''
  lines << "#{label}: #{answer.keys.sort.join(',')} #{digest(answer)}#{extra}"
end

a = on_supported_os
step.call('first', a)
b = on_supported_os
step.call('again', b, a)
b['debian-11-x86_64'][:extra] = 1
b['debian-11-x86_64'][:os]['name'] << '!'
c = on_supported_os
step.call('after changing a copy', c, b)
RspecPuppetFacts.common_facts[:rubysitedir] << '+x'
step.call('after changing a common fact', on_supported_os)
RspecPuppetFacts.common_facts[:rubysitedir].chomp!('+x')
step.call('after changing it back', on_supported_os)
step.call('hardwaremodels', on_supported_os(hardwaremodels: 'x86_64'))
step.call('one system', on_supported_os(supported_os: [{ 'operatingsystem' => 'RedHat', 'operatingsystemrelease' => ['8'] }]))
add_custom_fact :custom, 'value'
step.call('custom fact', on_supported_os)
add_custom_fact :by_os, ->(os, facts) { ($kept ||= []) << facts; "#{os}/#{facts[:osfamily]}" }, confine: 'debian-11-x86_64'
step.call('custom fact by proc', on_supported_os)
$kept.each { |f| f[:late] = 'set later' }
step.call('after changing a fact set the proc kept', on_supported_os)
RspecPuppetFacts.reset
step.call('after reset', on_supported_os)
ENV['SPEC_FACTS_OS'] = 'redhat'
step.call('SPEC_FACTS_OS', on_supported_os)
ENV.delete('SPEC_FACTS_OS')
FacterDB.get_facts({ operatingsystem: 'Debian' }).each { |f| f[:from_facterdb] = true }
step.call('after a FacterDB query', on_supported_os)
# A suite that queries FacterDB itself may hold a part of an answer.
RspecPuppetFacts::FACTS_CACHE.each_value { |answer| answer['debian-11-x86_64'][:os]['family'] = 'Changed' if answer['debian-11-x86_64'] }
step.call('after changing the cache', on_supported_os)
step.call('facterversion', on_supported_os(facterversion: '3.14'))
lines.each { |l| puts l }

$dumps = 0
20.times { on_supported_os['debian-11-x86_64'] }
puts "dumps of 20 calls: #{$dumps}"
