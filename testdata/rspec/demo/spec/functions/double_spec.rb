require 'spec_helper'

describe 'demo::double' do
  it { is_expected.to run.with_params(2).and_return(4) }
  it { is_expected.to run.with_params(1.5).and_return(3.0) }
  it { is_expected.to run.with_params('x').and_raise_error(ArgumentError, /expects a Numeric value, got String/) }
end

describe 'join' do
  it { is_expected.to run.with_params(%w[a b], '-').and_return('a-b') }
end
