require 'spec_helper'

describe 'web01.example.com' do
  it { is_expected.to contain_class('demo') }
  it { is_expected.to contain_notify('web node') }
end
