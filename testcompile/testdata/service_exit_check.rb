# Starts the adapter's test service with one request and exits, printing,
# after the adapter's own exit handler has run, whether the service has
# been reaped, for TestServiceReaped: a service rspec has reaped has its
# CPU time counted with rspec's (scripts/rspec-compare's CPU figures).
require 'rspec-puppet'
require 'facterdb'

client = MarionetteRspec.client
# Registered before the client starts, so it runs after the client's own.
at_exit do
  wait = client.instance_variable_get(:@wait)
  puts "service reaped: #{!wait.nil? && !wait.alive?}"
end
files = FacterDB.facterdb_fact_files.first(2)
resp = client.request('op' => 'factsets', 'files' => files, 'keys' => ['os'])
puts "answered: #{resp['ok']}"
