# Yields each pair of a hash, through a Struct (beyond marionette's Ruby
# subset), to the caller's lambda, or gives the pairs without one.
Puppet::Functions.create_function(:'site::each_pair') do
  dispatch :each_pair do
    param 'Hash', :h
    optional_block_param 'Callable[2, 2]', :block
  end

  def each_pair(h)
    pair = Struct.new(:k, :v)
    pairs = h.map { |k, v| pair.new(k, v) }
    return pairs.map { |p| "#{p.k}=#{p.v}" } unless block_given?

    pairs.map { |p| yield(p.k, p.v) }
  end
end
