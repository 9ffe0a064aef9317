require 'rspec-puppet'

fixtures = File.expand_path(File.join(__dir__, 'fixtures'))

RSpec.configure do |c|
  c.module_path = [File.join(fixtures, 'modules'), ENV['MODULEPATH']].compact.join(File::PATH_SEPARATOR)
  c.manifest = File.join(fixtures, 'manifests', 'site.pp')
  c.default_facts = {
    'os' => { 'family' => 'RedHat', 'name' => 'CentOS', 'release' => { 'major' => '8' } },
    'networking' => { 'ip' => '192.0.2.10' },
  }
end
