require 'spec_helper'

describe 'demo' do
  it { is_expected.to compile.with_all_deps }
  it { is_expected.to contain_class('demo').with_port(8080) }
  it { is_expected.to contain_package('demo').with_ensure('installed') }
  it { is_expected.to contain_file('/etc/demo.conf').with_content(/^port = 8080$/).without_content(/role/) }
  it { is_expected.to contain_file('/etc/demo.conf').that_requires('Package[demo]') }
  it { is_expected.to contain_file('/etc/demo.conf').that_notifies('Service[demo]') }
  it { is_expected.to contain_service('demo').that_subscribes_to('File[/etc/demo.conf]') }
  it { is_expected.to have_resource_count(3) }
  it { is_expected.to have_file_resource_count(1) }
  it { is_expected.not_to contain_demo__line('motd') }
  it { is_expected.not_to contain_file('/etc/demo/peers/foo.example.com') }

  context 'on Debian' do
    let(:facts) { { 'os' => { 'family' => 'Debian' } } }

    it { is_expected.to contain_package('demo-debian') }
    it { is_expected.to contain_file('/etc/demo.conf').that_requires('Package[demo-debian]') }
  end

  context 'with parameters' do
    let(:params) { { 'port' => 9090, 'ensure' => 'stopped', 'motd' => 'hello' } }

    it { is_expected.to contain_file('/etc/demo.conf').with_content("port = 9090\n") }
    it { is_expected.to contain_service('demo').with(ensure: 'stopped') }
    it { is_expected.to contain_demo__line('motd').with_path('/etc/motd') }
    it { is_expected.to contain_file('/etc/motd.d/motd').with_content("hello\n") }
    it { is_expected.to have_resource_count(5) }
  end

  context 'with a bad port' do
    let(:params) { { 'port' => 0 } }

    it { is_expected.to compile.and_raise_error(/parameter 'port' expects an Integer\[1, 65535\] value, got Integer\[0, 0\]/) }
  end

  context 'on Solaris' do
    let(:facts) { { 'os' => { 'family' => 'Solaris' } } }

    it { is_expected.to raise_error(Puppet::Error, /demo does not support Solaris/) }
  end

  context 'with a trusted role' do
    let(:trusted_facts) { { 'pp_role' => 'web' } }

    it { is_expected.to contain_file('/etc/demo.conf').with_content(/^role = web$/) }
  end

  context 'with a pre_condition' do
    let(:pre_condition) { "package { 'other': ensure => absent }" }

    it { is_expected.to contain_package('other').with_ensure('absent') }
    it { is_expected.to have_package_resource_count(2) }
  end

  context 'exported resources' do
    let(:facts) { { 'networking' => { 'ip' => '192.0.2.10', 'fqdn' => 'foo.example.com' } } }

    it { expect(exported_resources).to contain_file('/etc/demo/peers/foo.example.com').with_content('192.0.2.10') }
  end
end
