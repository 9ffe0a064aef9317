require 'spec_helper'

describe 'demo::double' do
  it { is_expected.to run.with_params(2).and_return(4) }
  it { is_expected.to run.with_params(1.5).and_return(3.0) }
  it { is_expected.to run.with_params('x').and_raise_error(ArgumentError, /expects a Numeric value, got String/) }
end

describe 'join' do
  it { is_expected.to run.with_params(%w[a b], '-').and_return('a-b') }
end

describe 'demo_halve' do
  it { is_expected.to run.with_params(4).and_return(2) }
  it { is_expected.to run.with_params.and_raise_error(ArgumentError, /Wrong number of arguments/) }
  it { is_expected.to run.with_params('x').and_raise_error(TypeError, /expects an Integer, got String/) }
  it { is_expected.to run.with_params(3).and_raise_error(Puppet::ParseError, /odd number/) }
end
