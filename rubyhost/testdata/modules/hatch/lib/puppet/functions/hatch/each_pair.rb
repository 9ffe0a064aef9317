# Yields pairs of a hash to the caller's block, as a Struct each.
Puppet::Functions.create_function(:'hatch::each_pair') do
  dispatch :each_pair do
    param 'Hash', :h
    block_param 'Callable[2, 2]', :block
  end

  def each_pair(h)
    pair = Struct.new(:k, :v)
    h.map { |k, v| p = pair.new(k, v); yield(p.k, p.v) }
  end
end
