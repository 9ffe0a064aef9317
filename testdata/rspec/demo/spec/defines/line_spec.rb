require 'spec_helper'

describe 'demo::line' do
  let(:title) { 'banner' }
  let(:params) { { 'path' => '/etc/issue', 'line' => 'welcome' } }

  it { is_expected.to compile.with_all_deps }
  it { is_expected.to contain_file('/etc/issue.d/banner').with_content("welcome\n").with_ensure('file') }

  context 'with a relative path' do
    let(:params) { { 'path' => 'etc/issue', 'line' => 'welcome' } }

    it { is_expected.to compile.and_raise_error(/parameter 'path' expects a match for Pattern/) }
  end

  context 'with node parameters' do
    let(:node_params) { { 'site' => 'paris' } }
    let(:pre_condition) { "notify { \"site ${site}\": }" }

    it { is_expected.to contain_notify('site paris') }
  end
end
