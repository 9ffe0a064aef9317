require 'spec_helper'

# rspec-puppet (with Puppet 6 and later) resolves a catalog's Deferred
# values with the example's facts, and unwraps its Sensitive ones, after
# the compile.
describe 'demo::deferred' do
  it { is_expected.to compile.with_all_deps }
  it { is_expected.to contain_notify('later').with_message(42) }
  it { expect(catalogue.resource('File', '/tmp/secret').sensitive_parameters).to eq([:content]) }
end
