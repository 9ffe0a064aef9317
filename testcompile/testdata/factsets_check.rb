# Checks the adapter's answers to FacterDB queries (MarionetteRspec::FactSets,
# run with RUBYOPT=-r.../marionette_rspec and MARIONETTE_BIN set) against
# FacterDB's own selection: JGrep over FacterDB's database, as
# FacterDB.get_facts makes it. The queries are those rspec-puppet-facts makes
# for a module supporting many systems, over several Facter versions, and
# some of other shapes. Prints one line per difference and a summary:
#   queries: N; answered: A; differ: D
require 'rspec'
require 'rspec-puppet-facts'
include RspecPuppetFacts

queries = []
FacterDB.singleton_class.prepend(Module.new do
  define_method(:get_facts) do |filter = nil, cache = true|
    queries << Marshal.load(Marshal.dump(filter))
    super(filter, cache)
  end
end)
supported = [
  ['Debian', %w[8 9 10 11 12]], ['Ubuntu', ['16.04', '18.04', '20.04', '22.04']],
  ['RedHat', %w[6 7 8 9]], ['CentOS', %w[7 8]], ['SLES', %w[12 15]], ['Archlinux', nil],
  ['windows', ['2012 R2', '2016', '2019', '10']], ['AIX', ['7.1', '7.2']], ['Solaris', %w[10 11]],
  ['FreeBSD', %w[11 12]], ['Amazon', %w[2]],
].map { |os, rel| rel ? { 'operatingsystem' => os, 'operatingsystemrelease' => rel } : { 'operatingsystem' => os } }
RspecPuppetFacts.instance_variable_set(:@metadata, { 'operatingsystem_support' => supported })
%w[3.14 4.2].each do |version|
  on_supported_os(facterversion: version, supported_os: Marshal.load(Marshal.dump(supported)))
end
queries += [
  { operatingsystemmajrelease: 7 }, { processorcount: '2' }, { is_virtual: 'true' }, { mtu_lo: 65536 },
  { operatingsystem: 'Debian', kernel: 'null' }, { operatingsystem: 'Debian GNU' }, { operatingsystemrelease: '10.0' },
  { operatingsystem: '/[/' }, { 'operatingsystem' => 'Debian', architecture: 'amd64' }, {}, nil,
  [{ operatingsystem: 'Debian' }, { operatingsystem: 'RedHat', operatingsystemrelease: '/^8/' }],
  [{ operatingsystem: 'Debian' }, {}], [], { 'os.family' => 'Debian' }, 'operatingsystem=Debian',
]
queries.uniq!
docs = JSON.parse(FacterDB.database)
answered = differ = 0
queries.each do |q|
  ours = MarionetteRspec::FactSets.get(q)
  next if ours.nil?
  answered += 1
  expr = FacterDB.generate_filter_str(q)
  theirs = if expr == ''
             docs
           else
             stack = JGrep::Parser.new(expr).execution_stack
             docs.select { |d| JGrep.eval_statement(d, stack) rescue false }
           end
  theirs = theirs.map { |h| Hash[h.map { |k, v| [k.to_sym, v] }] }
  next if ours == theirs
  differ += 1
  puts "differ: #{q.inspect}: #{ours.size} fact sets, FacterDB #{theirs.size}"
end
# The same queries' selections again: every statement was tested by now,
# so selecting tests none again (JGrep.has_object? is counted), and the
# CPU milliseconds a query are printed for the log.
files = MarionetteRspec::FactSets.fact_files
selections = queries.map { |q| MarionetteRspec::FactSets.clauses(q) }.compact.reject(&:empty?)
tests = 0
JGrep.singleton_class.prepend(Module.new do
  define_method(:has_object?) do |*args|
    tests += 1
    super(*args)
  end
end)
start = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
selections.each { |c| MarionetteRspec::FactSets.pick(files, c) }
ms = (Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - start) * 1000
puts format('selection: %.3f ms a query (%d queries)', ms / [selections.size, 1].max, selections.size)
puts "selections again: #{selections.size}; statements tested again: #{tests}"
puts "queries: #{queries.size}; answered: #{answered}; differ: #{differ}"
