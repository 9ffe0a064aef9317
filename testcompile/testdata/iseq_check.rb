# Requires the Ruby file ARGV[0] (which prints what it computes) with the
# adapter loaded, then prints the adapter's bytecode cache counts (files
# loaded from the cache, files compiled), for TestIseqCache.
require ARGV[0]
c = defined?(MarionetteRspec::IseqCache) ? MarionetteRspec::IseqCache : nil
puts "cache: #{c && c.dir ? 'on' : 'off'} hits=#{c ? c.hits : 0} misses=#{c ? c.misses : 0}"
