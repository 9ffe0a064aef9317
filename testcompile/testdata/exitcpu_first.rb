# Loaded before the adapter (RUBYOPT), so that this at_exit runs after the
# adapter's: prints the CPU time of this process's children Ruby has
# reaped (the test-service's, once the adapter waited for it), for
# TestFactSetsPrefetch.
at_exit do
  t = Process.times
  $stdout.puts "children_cpu_ms: #{((t.cutime + t.cstime) * 1000).round}"
end
