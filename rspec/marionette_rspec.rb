# Routes rspec-puppet's catalog builds (and function calls) to a warm
# `marionette test-service` process and loads its answers back into Puppet's
# own classes, so a module's suite and rspec-puppet's matchers run unchanged.
#
# Turn it on for a suite without touching it:
#
#   RUBYOPT=-r/path/to/marionette_rspec rspec spec/classes
#
# or `require '/path/to/marionette_rspec'` in spec/spec_helper.rb.
#
# Environment:
#   MARIONETTE_RSPEC=off          every example runs with Puppet, as before
#   MARIONETTE_RSPEC_FUNCTIONS=off  function examples run with Puppet
#   MARIONETTE_RSPEC_FACTS=off    FacterDB answers rspec-puppet-facts itself
#   MARIONETTE_BIN=PATH           the marionette binary (default: on PATH)
#   MARIONETTE_RSPEC_LOG=PATH     appends one line per routed request and
#                                 per catalog build (its wall and CPU time)
#   MARIONETTE_RSPEC_PHASES=PATH  writes at exit where the run's time went
#                                 (wall and CPU of each phase; either mode)
#
# An example falls back to Puppet on its own when marionette says it cannot
# answer as Puppet would (Ruby beyond its subset, a result it cannot
# render), when the request holds data JSON cannot carry, or when the
# service is not there.
module MarionetteRspec
  # CompiledRuby keeps the bytecode Ruby compiles each Ruby file it loads
  # into, in a cache directory, and loads it from there while the file's
  # size and mtime are the same, as Ruby's own iseq loading hook allows
  # (bootsnap does the same): loading Puppet, rspec-puppet and the types
  # and providers a suite needs is mostly compiling their Ruby, about
  # 0.5 s of every run. The bytecode is that of the same file, compiled by
  # this Ruby with its options; a file that does not compile is left to
  # Ruby, which reports it; one under the temporary directory is kept in
  # memory only. Off with MARIONETTE_RSPEC=off or MARIONETTE_RSPEC_CACHE=off,
  # while Ruby's Coverage runs, or when something else (bootsnap) already
  # loads compiled Ruby. The directory: MARIONETTE_RSPEC_CACHE, else
  # $XDG_CACHE_HOME/marionette/rspec-ruby (~/.cache/marionette/rspec-ruby).
  module CompiledRuby
    def self.dir
      return @dir if defined?(@dir)
      @dir = begin
        setting = ENV['MARIONETTE_RSPEC_CACHE'].to_s
        base = ENV['XDG_CACHE_HOME'].to_s
        base = File.join(Dir.home, '.cache') if base.empty?
        d = setting.empty? ? File.join(base, 'marionette', 'rspec-ruby') : setting
        require 'fileutils'
        require 'digest/sha2'
        FileUtils.mkdir_p(d)
        File.writable?(d) ? d : nil
      rescue StandardError
        nil
      end
    end

    def self.usable?
      ENV['MARIONETTE_RSPEC'] != 'off' && ENV['MARIONETTE_RSPEC_CACHE'] != 'off' &&
        defined?(RubyVM::InstructionSequence.load_from_binary) &&
        !RubyVM::InstructionSequence.respond_to?(:load_iseq) && !dir.nil?
    end

    # iseq is the compiled file at path, from the cache or compiled now
    # (and kept), or nil: Ruby's own loading.
    def self.iseq(path)
      return nil if defined?(::Coverage) && ::Coverage.respond_to?(:running?) && ::Coverage.running?
      stat = File.stat(path)
      stamp = "#{stat.size}:#{stat.mtime.tv_sec}.#{stat.mtime.tv_nsec}\n".b
      return in_memory(path, stamp) if transient?(path)
      file = File.join(dir, Digest::SHA256.hexdigest(key_base + path))
      begin
        data = File.binread(file)
        if data.start_with?(stamp)
          return RubyVM::InstructionSequence.load_from_binary(data.byteslice(stamp.bytesize..))
        end
      rescue SystemCallError, RuntimeError, TypeError, ArgumentError
        # Absent, or not this Ruby's: compiled again below.
      end
      compiled = compile(path) or return nil
      begin
        tmp = "#{file}.#{Process.pid}"
        File.binwrite(tmp, stamp + compiled.to_binary)
        File.rename(tmp, file)
      rescue StandardError
        File.unlink(tmp) rescue nil # rubocop:disable Style/RescueModifier
      end
      compiled
    rescue SystemCallError
      nil
    end

    # in_memory is iseq for a transient file: kept in this process only,
    # for the loads of it after the first (Puppet loads a 3.x function's
    # file again in every example).
    def self.in_memory(path, stamp)
      @memory ||= {}
      have = @memory[path]
      return RubyVM::InstructionSequence.load_from_binary(have[1]) if have && have[0] == stamp
      compiled = compile(path) or return nil
      @memory[path] = [stamp, compiled.to_binary.freeze]
      compiled
    end

    # compile is the file compiled by this Ruby, or nil when it does not
    # compile (Ruby's own loading then reports the SyntaxError).
    def self.compile(path)
      RubyVM::InstructionSequence.compile_file(path)
    rescue SyntaxError
      nil
    end

    # transient? says whether path is under the temporary directory
    # (Dir.tmpdir): a copy made for one run, as scripts/rspec-compare's of
    # the module, whose entries in the cache directory would pile up, a
    # set a run, never read again. Such files are kept in memory only.
    def self.transient?(path)
      @transient ||= begin
        tmp = Dir.tmpdir
        [tmp, File.realpath(tmp)].uniq.map { |d| File.join(d, '') }
      rescue StandardError
        []
      end
      @transient.any? { |prefix| path.start_with?(prefix) }
    end

    def self.key_base
      @key_base ||= [RUBY_VERSION, RUBY_PATCHLEVEL, RUBY_PLATFORM, RUBY_REVISION,
                     RubyVM::InstructionSequence.compile_option.sort.inspect, ''].join("\0")
    end
  end
end

if MarionetteRspec::CompiledRuby.usable?
  # For CompiledRuby.transient?. Nothing is required from inside the hook:
  # a require there, amid Ruby's own loading of a file, changed what a
  # later load did (TestOsFacts saw another fact set for one query).
  require 'tmpdir'
  class << RubyVM::InstructionSequence
    def load_iseq(path)
      MarionetteRspec::CompiledRuby.iseq(path)
    end
  end
end

require 'json'
require 'open3'
require 'tmpdir'

module MarionetteRspec
  # AutoloadFeatures keeps Puppet's autoloader from making Ruby rebuild its
  # index of loaded features. Puppet records a plugin file it is about to
  # load by appending it to $LOADED_FEATURES by hand (so that a later
  # require of it does nothing), then loads it with Kernel.load. An array
  # changed by hand makes Ruby 3.1 rebuild that index at the next require,
  # with the real path of every loaded feature: a readlink per path
  # component, about 10,000 calls with Puppet and rspec-puppet loaded, for
  # every type, provider or feature file the run loads (~1 million readlink
  # calls and 1.5 s of haproxy's suite). Here such a file is loaded by
  # `require` of its path instead, which records it as Ruby records its
  # own loads, leaving the index as it is: the same file, loaded once, its
  # path in $LOADED_FEATURES and in the autoloader's table as Puppet puts
  # them. When require would not load it (Ruby knows the file under another
  # path), the file is recorded and loaded as Puppet does; when it raises,
  # it stays recorded, as under Puppet.
  module AutoloadFeatures
    def mark_loaded(name, file)
      path = File.expand_path(file)
      return super unless MarionetteRspec.enabled? && !$LOADED_FEATURES.include?(path)
      loaded[cleanpath(name).chomp('.rb')] = [path, File.mtime(path)]
      Thread.current[:marionette_autoload_pending] = path
    end
  end

  # AutoloadRequire is Kernel.load for the file AutoloadFeatures left
  # unrecorded: Puppet's autoloader loads it right after marking it.
  module AutoloadRequire
    def load(file, *rest)
      pending = Thread.current[:marionette_autoload_pending]
      return super if pending.nil?
      Thread.current[:marionette_autoload_pending] = nil
      if rest.empty? && File.expand_path(file) == pending
        begin
          return true if Kernel.require(pending)
        rescue Exception # rubocop:disable Lint/RescueException
          # As Puppet: the file stays recorded when its load fails.
          $LOADED_FEATURES << pending unless $LOADED_FEATURES.include?(pending)
          raise
        end
      end
      $LOADED_FEATURES << pending unless $LOADED_FEATURES.include?(pending)
      super
    end
  end

  def self.enabled?
    ENV['MARIONETTE_RSPEC'] != 'off'
  end
end

# Before Puppet loads its first plugins (Puppet's own load and
# rspec-puppet's load some).
begin
  require 'puppet/util/autoload'
  if MarionetteRspec.enabled? && Puppet::Util::Autoload.respond_to?(:mark_loaded)
    Puppet::Util::Autoload.singleton_class.prepend(MarionetteRspec::AutoloadFeatures)
    Kernel.singleton_class.prepend(MarionetteRspec::AutoloadRequire)
  end
rescue LoadError
  # Another layout of Puppet: its autoloader is left as it is.
end
require 'rspec-puppet'

# The moment Ruby, Puppet and rspec-puppet are loaded, for Phases.
MARIONETTE_RSPEC_LOADED = [Process.clock_gettime(Process::CLOCK_MONOTONIC),
                            Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)].freeze

module MarionetteRspec
  # Client is the connection to one test-service process, started on first
  # use and kept for the whole rspec run.
  class Client
    Fallback = Class.new(StandardError)

    def initialize(bin)
      @bin = bin
      @next_id = 0
      @log = ENV['MARIONETTE_RSPEC_LOG']
    end

    # request sends one request and returns the decoded response.
    def request(req)
      raise Fallback, @broken if @broken
      start unless @stdin
      drain
      @next_id += 1
      req = req.merge('id' => @next_id)
      line = JSON.generate(req)
      @stdin.write(line, "\n")
      @stdin.flush
      resp = @stdout.gets
      broken('marionette test-service exited') if resp.nil?
      resp = JSON.parse(resp)
      log(req, resp)
      resp
    rescue JSON::GeneratorError => e
      # A request JSON cannot carry: Puppet answers this one.
      raise Fallback, e.message
    rescue SystemCallError, IOError => e
      broken("marionette test-service: #{e.message}")
    end

    # note logs a line of the adapter's own (a call left to Puppet).
    def note(line)
      MarionetteRspec.log_line(line) if @log
    end

    # prefetch sends a request whose answer no one waits for: the service
    # works on it while Ruby goes on (FactSets.prefetch), and the next
    # request reads and drops its response first. False when the service
    # is not there.
    def prefetch(req)
      return false if @broken
      start unless @stdin
      @next_id += 1
      @stdin.write(JSON.generate(req.merge('id' => @next_id)), "\n")
      @stdin.flush
      @pending = (@pending || 0) + 1
      true
    rescue SystemCallError, IOError, JSON::GeneratorError
      false
    end

    private

    # drain reads the responses of prefetched requests.
    def drain
      while @pending && @pending > 0
        @pending -= 1
        resp = @stdout.gets
        broken('marionette test-service exited') if resp.nil?
        next unless @log
        resp = JSON.parse(resp)
        MarionetteRspec.log_line("prefetch #{resp['ok'] ? 'ok' : 'error'} #{resp['ms']}ms")
      end
    end

    def start
      @stdin, @stdout, @wait = Open3.popen2(@bin, 'test-service')
      # At exit the service is told to end and waited for, so that its CPU
      # time is this process's children's (what rspec-compare measures),
      # not an orphan's.
      at_exit do
        @stdin.close rescue nil
        @wait.join(10) rescue nil
      end
    end

    # broken gives up on the service for the rest of the run, saying so
    # once: every example then runs with Puppet.
    def broken(why)
      @broken = why
      warn "marionette_rspec: #{why} (#{@bin}); the examples run with Puppet"
      raise Fallback, why
    end

    def log(req, resp)
      return unless @log
      what = case req['op']
             when 'call' then "call #{req['function']}"
             when 'factsets' then 'factsets'
             else 'compile'
             end
      verdict = resp['ok'] ? 'ok' : (resp.dig('error', 'unsupported') ? 'unsupported' : 'error')
      MarionetteRspec.log_line("#{what} #{verdict} #{resp['ms']}ms")
    end
  end

  def self.functions_enabled?
    enabled? && ENV['MARIONETTE_RSPEC_FUNCTIONS'] != 'off'
  end

  def self.client
    @client ||= Client.new(ENV['MARIONETTE_BIN'] || 'marionette')
  end

  # settings are the parts of a request Puppet takes from its settings and
  # rspec-puppet's adapter.
  def self.settings(adapter)
    hiera = Puppet[:hiera_config].to_s
    {
      'environment' => adapter.current_environment.name.to_s,
      'modulepath' => adapter.modulepath,
      'hiera_config' => (File.file?(hiera) ? hiera : ''),
      'strict' => Puppet[:strict].to_s,
      'strict_variables' => !!Puppet[:strict_variables],
      'puppet_version' => Puppet.version.split('.').first,
    }
  end

  # plain turns test data into JSON data: symbols such as :undef as Puppet's
  # rspec-puppet reads them; anything else JSON cannot carry falls back.
  def self.plain(v)
    case v
    when Hash then v.each_with_object({}) { |(k, e), h| h[k.to_s] = plain(e) }
    when Array then v.map { |e| plain(e) }
    when :undef, nil then nil
    when Symbol then v.to_s
    when String, Integer, Float, true, false then v
    else raise Client::Fallback, "#{v.class} is no JSON data"
    end
  end

  # plain_facts is plain(facts), kept while the facts stay the same: a
  # FacterDB fact set is hundreds of values to convert, and most builds of
  # a suite have the previous build's facts (rspec-puppet makes a new but
  # equal hash for each example).
  def self.plain_facts(facts)
    return @plain_facts if @plain_source && @plain_source.eql?(facts)
    result = plain(facts)
    @plain_source = begin
      Marshal.load(Marshal.dump(facts))
    rescue StandardError
      nil
    end
    @plain_facts = result
  end

  # call_args are a function call's arguments as JSON data. What a Ruby
  # function would see differently from its JSON form falls back to
  # Puppet: a Symbol other than :undef (passed to a function as it is) and
  # an instance of a String subclass (whose methods a test may define).
  def self.call_args(v)
    case v
    when Hash then v.each_with_object({}) { |(k, e), h| h[call_key(k)] = call_args(e) }
    when Array then v.map { |e| call_args(e) }
    when :undef, nil then nil
    when Symbol then raise Client::Fallback, "the Symbol #{v.inspect} is no JSON data"
    when String
      raise Client::Fallback, "a #{v.class} is no JSON data" unless v.instance_of?(String)
      v
    when Integer, Float, true, false then v
    else raise Client::Fallback, "#{v.class} is no JSON data"
    end
  end

  def self.call_key(k)
    raise Client::Fallback, "a #{k.class} key is no JSON data" unless k.instance_of?(String)
    k
  end

  # mocking? says whether the running example stubs or mocks anything
  # (rspec-mocks' proxies and any_instance recorders, Mocha's stubs).
  # rspec-puppet's own stub (Selinux.is_selinux_enabled, before every
  # example when Selinux is loaded) does not count.
  def self.mocking?
    if defined?(RSpec::Mocks) && RSpec::Mocks.respond_to?(:space)
      space = RSpec::Mocks.space
      if space.respond_to?(:proxies)
        return true if space.proxies.values.any? { |p| !rspec_puppet_stub?(p.instance_variable_get(:@object)) }
      end
      return true if space.respond_to?(:any_instance_recorders) && !space.any_instance_recorders.empty?
    end
    if defined?(Mocha::Mockery) && Mocha::Mockery.respond_to?(:instance)
      stubba = Mocha::Mockery.instance.stubba rescue nil
      if stubba && stubba.respond_to?(:stubba_methods)
        return true if stubba.stubba_methods.any? { |m| !rspec_puppet_stub?(m.respond_to?(:stubbee) ? m.stubbee : nil) }
      end
    end
    false
  rescue StandardError
    false
  end

  def self.rspec_puppet_stub?(object)
    defined?(::Selinux) && object.equal?(::Selinux) ? true : false
  end

  # error_for raises a failed compile's error as Puppet raises it.
  def self.raise_error(resp)
    err = resp['error'] || {}
    raise Client::Fallback, err['message'] if err['unsupported']
    raise Puppet::PreformattedError.new(err['message']) if defined?(Puppet::PreformattedError)
    raise Puppet::Error, err['message']
  end

  # function_error is the exception a function's call raised, of the
  # Ruby class the function raised (the service's class: TypeError,
  # ArgumentError, ...), with the function's own message, as a matcher
  # sees it under Puppet. A class this Ruby has not loaded is left to
  # Puppet, which loads it.
  def self.function_error(err)
    detail = err['detail'].to_s
    name = err['class'].to_s
    if name.empty?
      # A Puppet function's signature mismatch is Ruby's ArgumentError.
      return ArgumentError.new(detail) if detail =~ /\A'[\w:]+' (?:parameter|expects|block)/
      return Puppet::ParseError.new(detail)
    end
    klass = begin
      name.match?(/\A(?:[A-Z]\w*)(?:::[A-Z]\w*)*\z/) ? Object.const_get(name) : nil
    rescue NameError
      nil
    end
    raise Client::Fallback, "#{name} is not loaded" unless klass.is_a?(Class) && klass <= Exception
    begin
      e = klass.new(detail)
      return e if e.message == detail
    rescue StandardError
      # A constructor of other arguments (Psych::SyntaxError): below.
    end
    e = klass.allocate
    e.define_singleton_method(:message) { detail }
    e.define_singleton_method(:to_s) { detail }
    e
  end

  # settle_resource_types gives each class and defined type resource of a
  # catalog marionette compiled the type Puppet's lookup would find,
  # without that lookup: Puppet's compile leaves every class and define
  # loaded in the environment, so its resources find their types for
  # free, but here the environment is fresh, and the first look (to_hash,
  # a matcher, the cycle check's to_ral) would parse the module's manifests
  # with Puppet's parser on every example. What is read of such a type
  # after a compile is that it is one, of its kind and name (not a builtin
  # type; no title patterns; the namevar `name`), which the bare type
  # answers as the parsed one does. Class[main] and Class[Settings], which
  # a fresh environment does not know, keep Puppet's lookup.
  def self.settle_resource_types(catalog)
    catalog.resources.each do |r|
      type = r.type
      if type == 'Class'
        name = r.title.to_s.downcase
        next if name == 'main' || name == 'settings'
        r.resource_type = bare_type(:hostclass, name)
      elsif type.include?('::') || r.kind == 'defined_type'
        # Puppet::Type.type answers nil for a name with '::': a defined
        # type. One without '::' is a defined type when the compile made it
        # one (the kind Puppet's catalog records for it), which Puppet's
        # lookup finds only after looking for a Ruby type of that name in
        # every directory of the autoloader's search path, each time
        # (always_retry_plugins).
        r.resource_type = bare_type(:definition, type.downcase)
      end
    end
  end

  # catalog_from is Puppet's catalog object of a catalog marionette
  # compiled, its class and defined type resources with the types
  # settle_resource_types gives them, from the start: Puppet's loading of
  # the catalog asks each resource's type (for its namevar), and for a
  # class or defined type that lookup parses the example's code and the
  # module's manifests into a fresh environment, every example.
  def self.catalog_from(data)
    Thread.current[:marionette_bare_types] = defined_types(data)
    catalog = begin
      Puppet::Resource::Catalog.from_data_hash(data)
    ensure
      Thread.current[:marionette_bare_types] = nil
    end
    settle_resource_types(catalog)
    catalog
  end

  # defined_types are the resource types of a catalog's data that the
  # compile made defined types (the kind Puppet records), as the data
  # spells them.
  def self.defined_types(data)
    found = {}
    resources = data.is_a?(Hash) ? data['resources'] : nil
    if resources.is_a?(Array)
      resources.each do |r|
        found[r['type']] = true if r.is_a?(Hash) && r['kind'] == 'defined_type' && r['type'].is_a?(String)
      end
    end
    found
  end

  # BareTypes answers Puppet::Resource's type lookups while catalog_from
  # loads a catalog: a class or a defined type ('::' in its name) is its
  # bare type, as settle_resource_types makes it; anything else is
  # Puppet's lookup. Class[main] and Class[Settings] too, while the
  # environment has not parsed its code (nothing of Puppet's compiled in
  # it): then Puppet's answers would be the main class of the code, whose
  # bare type answers as it does, and none for Settings, which only a
  # Puppet compile adds. A defined type without '::' in its name is its
  # bare type when the catalog's data says the compile made it one.
  module BareTypes
    def resource_type(type, title, environment)
      defs = Thread.current[:marionette_bare_types]
      if defs && type.is_a?(String)
        if type == 'Class'
          name = title.to_s.downcase
          name = '' if name == 'main'
          unless name.empty? || name == 'settings'
            return MarionetteRspec.bare_type(:hostclass, name)
          end
          if environment.is_a?(Puppet::Node::Environment) && environment.instance_variable_get(:@known_resource_types).nil?
            return name.empty? ? MarionetteRspec.bare_type(:hostclass, '') : nil
          end
        elsif type.include?("::") || defs[type]
          return MarionetteRspec.bare_type(:definition, type.downcase)
        end
      end
      super
    end
  end

  # stub_facts does what rspec-puppet's stub_facts! does after a build
  # (Facter's facts become the example's; autosign off), unless Facter
  # already holds exactly those facts: the same as the last build's, and
  # nothing has changed Facter since (FacterChanges notes each change).
  # Stubbing a fact set costs about 2 ms (a Facter.add a fact), and most
  # builds of a suite share their facts with the one before.
  def self.stub_facts(group, facts)
    if @stubbed && !FacterChanges.changed? && @stubbed.eql?(facts) &&
       group.method(:stub_facts!).owner == RSpec::Puppet::Support
      Puppet.settings[:autosign] = false if Puppet.settings.include?(:autosign)
      return
    end
    group.stub_facts!(facts)
    # Changes are watched from the first stub on (before it, nothing is
    # the same as a last stub).
    ::Facter.singleton_class.prepend(FacterChanges) if defined?(::Facter) && !(::Facter.singleton_class < FacterChanges)
    @stubbed = begin
      Marshal.load(Marshal.dump(facts))
    rescue StandardError
      nil
    end
    FacterChanges.changed = false
  end

  # FacterChanges marks each call that may change Facter's facts (or hand
  # out a fact to change).
  module FacterChanges
    class << self
      attr_writer :changed

      def changed?
        @changed != false
      end
    end

    %i[add clear reset define_fact fact loadfacts load_external].each do |m|
      define_method(m) do |*args, **kwargs, &block|
        FacterChanges.changed = true
        super(*args, **kwargs, &block)
      end
    end

    # A directory added to Facter's search path changes its facts only if
    # it exists: Facter leaves out the others when it loads facts. Each
    # example's factpath adds its fresh vardir's, which do not.
    %i[search search_external].each do |m|
      define_method(m) do |*args, **kwargs, &block|
        FacterChanges.changed = true if args.flatten.any? { |d| File.directory?(d.to_s) }
        super(*args, **kwargs, &block)
      end
    end
  end

  # resolve_deferred does to a catalog marionette compiled what
  # rspec-puppet's adapter does to Puppet's after its compile (with Puppet
  # 6 and later): Puppet's DeferredResolver with the example's facts, which
  # calls each Deferred function, unwraps each Sensitive value into the
  # resource's sensitive parameters and each Binary into its string. A
  # catalog holding none of those is left as it is: the resolver would
  # only replace its arrays and hashes by equal copies, and making its
  # compiler costs more than the build.
  def self.resolve_deferred(adapter, nodename, facts, catalog)
    return unless defined?(Puppet::Pops::Evaluator::DeferredResolver)
    if defined?(RSpec::Puppet::Adapters::Adapter6X) && !adapter.is_a?(RSpec::Puppet::Adapters::Adapter6X)
      return # rspec-puppet 2.9 with a Puppet before 6 resolves nothing
    end
    return unless catalog.resources.any? { |r| r.parameters.each_value.any? { |v| resolvable?(v) } }
    # The example's environment, as Puppet's catalog holds it (a loaded
    # catalog's is a remote one, without the module path).
    Puppet::Pops::Evaluator::DeferredResolver.resolve_and_replace(
      Puppet::Node::Facts.new(nodename, (facts || {}).dup), catalog, adapter.current_environment,
    )
  end

  # resolvable? tells whether Puppet's DeferredResolver would change v.
  def self.resolvable?(v)
    case v
    when Array then v.any? { |e| resolvable?(e) }
    when Hash then v.each_value.any? { |e| resolvable?(e) }
    else
      v.class == (@deferred_class ||= Puppet::Pops::Types::TypeFactory.deferred.implementation_class) ||
        v.is_a?(Puppet::Pops::Types::PSensitiveType::Sensitive) || v.is_a?(Puppet::Pops::Types::PBinaryType::Binary)
    end
  end

  def self.bare_type(kind, name)
    (@bare_types ||= {})[[kind, name]] ||= Puppet::Resource::Type.new(kind, name)
  end

  # CatalogTags gives each resource catalog_from loads its tags the way
  # Puppet's Tagging#tag makes them from the catalog's list (each
  # downcased, checked against Puppet's tag pattern, '::' names split, in
  # a TagSet in that order), once per distinct list: the resources of a
  # catalog share a handful of lists, and each later resource gets a copy
  # of the set made for its list. The copy holds the same strings as one
  # made anew (a set keeps its strings frozen and deduplicated by Ruby), in
  # the same order. A list that fails Puppet's check is never kept (each
  # time Puppet's own raises).
  module CatalogTags
    def tag(*ary)
      unless Thread.current[:marionette_bare_types] && @tags.nil? && instance_of?(Puppet::Resource) &&
             MarionetteRspec.enabled? && ary.all? { |t| t.instance_of?(String) }
        return super
      end
      sets = MarionetteRspec::CatalogTags.sets
      set = sets[ary]
      if set
        @tags = set.dup
        return ary.flatten.compact
      end
      result = super
      sets[ary.map { |t| -t }.freeze] = @tags.dup if sets.size < 10_000
      result
    end

    def self.sets
      @sets ||= {}
    end
  end

  # PlainParameters answers Puppet's conversion of a resource's parameters
  # from data while catalog_from loads a catalog (Puppet::Resource's
  # from_data_hash: FromDataConverter.convert(parameters), no options).
  # For data with no rich value in it (no hash with a '__ptype' key) that
  # conversion builds a new hash or array for each one of the data, with
  # the same keys in the same order and the same leaf objects, through a
  # builder object per value: here the same copy is made directly. Rich
  # data (Deferred, Sensitive, ...) is Puppet's.
  module PlainParameters
    def convert(value, options = Puppet::Pops::EMPTY_HASH)
      if Thread.current[:marionette_bare_types] && options.empty? && MarionetteRspec.enabled?
        copy = catch(:marionette_rich) { MarionetteRspec::PlainParameters.copy(value) }
        return copy unless copy.equal?(MarionetteRspec::PlainParameters::RICH)
      end
      super
    end

    RICH = Object.new.freeze

    def self.copy(v)
      if v.is_a?(Hash)
        throw :marionette_rich, RICH if v.key?('__ptype')
        h = {}
        v.each_pair { |k, e| h[k] = copy(e) }
        h
      elsif v.is_a?(Array)
        v.map { |e| copy(e) }
      else
        v
      end
    end
  end

  # LazyLoaders puts off the Puppet loaders rspec-puppet makes before each
  # example until something asks for them: one per module on the module
  # path (about 12 ms an example with a hundred modules), which a catalog
  # marionette compiled never needs. Puppet's context evaluates a bound
  # Proc on its first lookup, so an example that falls back to Puppet
  # gets the same loaders, only later.
  module LazyLoaders
    def setup_puppet(*args, **kwargs)
      return super unless MarionetteRspec.enabled?
      Thread.current[:marionette_lazy_loaders] = true
      super
    ensure
      Thread.current[:marionette_lazy_loaders] = nil
    end
  end

  module LazyLoadersNew
    def new(environment, *rest)
      return super unless Thread.current[:marionette_lazy_loaders]
      Thread.current[:marionette_lazy_loaders] = nil
      loaders = self
      proc { loaders.new(environment, *rest) }
    end
  end

  # InSetupPuppet marks the time rspec-puppet's Support#setup_puppet runs
  # (before every example and every catalog build), during which
  # ModuleLibsGlob and VardirInMemory answer its Dir calls. It is not the
  # adapter's setup_puppet LazyLoaders wraps.
  module InSetupPuppet
    def setup_puppet(*args, **kwargs)
      return super unless MarionetteRspec.enabled?
      Thread.current[:marionette_in_setup_puppet] = true
      super
    ensure
      Thread.current[:marionette_in_setup_puppet] = nil
    end
  end

  # ModuleLibsGlob spares the glob of each module path directory's */lib
  # that setup_puppet makes to put the modules' Ruby on the load path:
  # about 0.6 ms an example with a hundred modules (1.5 s of stdlib's
  # suite). The answer is kept per pattern and used again while the
  # directory's mtime is the same: a module added, removed or renamed
  # changes it. What that does not see is a lib directory made or removed
  # inside a module already there during the run; a suite does not change
  # its module path's modules as it runs.
  module ModuleLibsGlob
    def [](*patterns, **kwargs)
      pattern = patterns.first
      unless Thread.current[:marionette_in_setup_puppet] && patterns.size == 1 && kwargs.empty? &&
             pattern.instance_of?(String) && pattern.end_with?('/*/lib')
        return super
      end
      dir = pattern.delete_suffix('/*/lib')
      return super if dir.empty? || dir.match?(/[*?\[\]{}\\]/)
      mtime = begin
        File.mtime(dir)
      rescue SystemCallError
        return super
      end
      cache = (@marionette_module_libs ||= {})
      have = cache[pattern]
      return have[1].dup if have && have[0] == mtime
      found = super
      cache[pattern] = [mtime, found.dup.freeze]
      found
    end
  end

  # VardirInMemory puts the fresh vardir rspec-puppet's setup_puppet makes
  # for every example and every catalog build (an empty directory,
  # removed after) in /dev/shm, a memory file system, rather than Ruby's
  # temporary directory: making and removing a directory on a disk's file
  # system waits for its journal, 0.5 ms a pair on a busy machine (ntp's
  # suite makes 2,600). It is made and removed as before, only elsewhere;
  # a TMPDIR the user set is kept.
  module VardirInMemory
    def mktmpdir(prefix_suffix = nil, *rest, **options, &block)
      if Thread.current[:marionette_in_setup_puppet] && rest.empty? && options.empty? && ENV['TMPDIR'].nil? &&
         (dir = MarionetteRspec.memory_tmpdir)
        return super(prefix_suffix, dir, &block)
      end
      super
    end
  end

  # memory_tmpdir is /dev/shm when it is a directory anyone may make
  # directories in, as /tmp (sticky, writable), else nil.
  def self.memory_tmpdir
    return @memory_tmpdir if defined?(@memory_tmpdir)
    d = '/dev/shm'
    @memory_tmpdir = begin
      st = File.stat(d)
      st.directory? && st.sticky? && st.world_writable? && File.writable?(d) ? d : nil
    rescue SystemCallError
      nil
    end
  end

  # MochaChecks spares Mocha's checks of a stub the cost of a backtrace
  # when the check is off. Each stub runs four checks (stubbing a
  # non-existent or non-public method, on nil, on a non-mock object), each
  # of which takes `caller` (a hundred frames under rspec) before it reads
  # the setting that says whether to check at all, and before it asks its
  # question of the stubbed object; the default of three is to allow,
  # which returns nothing and uses neither, and stubbing on nil is
  # reported only for nil. Specs and puppetlabs_spec_helper stub before
  # every example (Signal.trap, Puppet.features.root?). A check that
  # reports gets the same backtrace, taken here.
  module MochaChecks
    def check(action, description, signature_proc, *backtrace, &block)
      return super unless backtrace.empty? && MarionetteRspec.enabled?
      return nil if Mocha.configuration.send(action) == :allow
      # The condition (a question about the stubbed object), then the
      # backtrace only for a stub the check reports.
      return nil if block && !block.call
      super(action, description, signature_proc, caller)
    end

    # install puts the checks in front of Mocha's when Mocha is loaded and
    # its check is the one they stand for.
    def self.install
      return unless MarionetteRspec.enabled? && defined?(::Mocha::Mockery) && defined?(::Mocha.configuration)
      return if ::Mocha::Mockery < self
      return unless ::Mocha::Mockery.private_method_defined?(:check) &&
                    ::Mocha::Mockery.instance_method(:check).parameters ==
                    [%i[req action], %i[req description], %i[req signature_proc], %i[opt backtrace]]
      ::Mocha::Mockery.prepend(self)
    end
  end

  # FactSearch keeps the factpath hook from costing more with every
  # example. The hook runs twice an example (Puppet's test helper and
  # rspec-puppet each initialise the settings) and adds factpath's two
  # directories (under rspec-puppet's fresh vardir: new ones every example)
  # to Facter's list of custom fact directories, by copying the whole list
  # (Facter 4's `search`): quadratic in the number of examples, 0.9 s of
  # CPU over stdlib's 2,300 examples. Here they are appended in place: the
  # same list, in the same order, without the copy.
  module FactSearch
    def search(*dirs)
      if MarionetteRspec.enabled? && defined?(::Facter::OptionStore) && defined?(::Facter::VERSION) &&
         ::Facter::VERSION.start_with?('4.')
        have = ::Facter::OptionStore.instance_variable_get(:@custom_dir)
        if have.is_a?(Array) && !have.empty? && !have.frozen?
          # As Facter.search would be (FacterChanges).
          FacterChanges.changed = true if dirs.flatten.any? { |d| File.directory?(d.to_s) }
          have.concat(dirs.flatten)
          return nil
        end
      end
      super
    end
  end

  # SharedFacter makes Puppet's Facter runtime once for the run, not once
  # an example: Puppet's test helper clears Puppet's runtime services after
  # each example, and the new Puppet::FacterImpl the next example's
  # settings make (their factpath hook) runs `require 'facter'`, the only
  # require of an example. The load path the helper has just restored
  # makes Ruby expand it all again for that require: 0.4 ms an example,
  # 0.9 s of stdlib's suite. The object holds no state of its own (it
  # passes each call to Facter, whose message handler it sets the same
  # way every time), so one serves every example; a test that replaces
  # Puppet.runtime[:facter] still does so for its example.
  module SharedFacter
    def new(*args, &block)
      return super unless MarionetteRspec.enabled? && args.empty? && block.nil?
      @marionette_shared ||= super
    end
  end

  # ConfineTest spares the cost of a confine Puppet has no test class for
  # (`confine :operatingsystem => ...` in a provider: a fact, not one of
  # Puppet's confine classes). Puppet looks for the class's file, and reads
  # the LoadError's message to tell a missing file from a broken one;
  # Ruby's message for a missing file runs DidYouMean's spelling
  # suggestions over every file it could require, about 30 ms each time,
  # and Puppet tries again at the next confine (always_retry_plugins). The
  # missing file is told here by the error's path, which costs nothing;
  # the answer is Puppet's (no test, no warning), and anything else is
  # left to Puppet.
  module ConfineTest
    def test(name)
      tests = instance_variable_get(:@tests)
      return super unless MarionetteRspec.enabled? && tests.is_a?(Hash) && !tests.include?(name)
      feature = "puppet/confine/#{name}"
      begin
        require feature
      rescue LoadError => e
        return super unless e.path == feature
        tests[name] = nil unless Puppet[:always_retry_plugins]
        return tests[name]
      end
      super
    end
  end

  # FactSets answers FacterDB's queries (rspec-puppet-facts makes one per
  # operating system a module supports, plus one for them all) without
  # FacterDB's cost: each query parses its whole database (16 MB of JSON)
  # and tests every fact set in Ruby. Here the service reads the files once
  # and hands over the few top-level facts a query tests; each test is
  # JGrep's own (JGrep.has_object?, on that fact alone, which is all it
  # reads of a fact set), so the fact sets chosen are FacterDB's; only
  # those are parsed, from their files, as FacterDB's database holds them.
  # A query of another shape, or anything unexpected, goes to FacterDB.
  module FactSets
    def self.usable?
      return @usable unless @usable.nil?
      @usable = ENV['MARIONETTE_RSPEC_FACTS'] != 'off' && defined?(FacterDB::Version::STRING) &&
                FacterDB::Version::STRING.start_with?('1.') &&
                FacterDB.respond_to?(:facterdb_fact_files) && FacterDB.respond_to?(:generate_filter_str) &&
                defined?(JGrep::Parser) && JGrep.respond_to?(:has_object?) ? true : false
    end

    # get answers FacterDB.get_facts(filter): its fact sets, or nil when
    # FacterDB should answer.
    def self.get(filter)
      return nil unless MarionetteRspec.enabled? && usable? && !FacterDB.inject_source?
      clauses = clauses(filter)
      return nil unless clauses
      files = fact_files
      # As JGrep: its global JSON setting, then every fact set when there
      # is nothing to test.
      JSON.create_id = nil
      picked = if clauses.empty?
                 (0...files.size).to_a
               else
                 pick(files, clauses)
               end
      return nil unless picked
      picked.map do |i|
        doc = JSON.parse(File.read(files[i]))
        return nil unless doc.is_a?(Hash)
        Hash[doc.map { |k, v| [k.to_sym, v] }]
      end
    rescue Client::Fallback, SystemCallError, JSON::ParserError
      nil
    end

    # clauses turns a filter into FacterDB's query, as a list of clauses
    # each a list of [fact, statement] (any clause true, all of its
    # statements true); [] tests nothing. nil: a query this does not
    # answer. The query is checked with JGrep's own parser to read as
    # exactly that.
    def self.clauses(filter)
      hashes = case filter
               when nil then return []
               when Hash then return [] if filter.empty?; [filter]
               when Array then filter
               else return nil
               end
      return nil if hashes.empty? || !hashes.all? { |h| h.is_a?(Hash) && !h.empty? }
      clauses = hashes.map do |h|
        h.map do |k, v|
          fact = k.to_s
          statement = "#{fact}=#{v}"
          return nil unless fact.match?(/\A\w+\z/) && statement.split(/<=|>=|=|<|>/).first == fact
          [fact, statement]
        end
      end
      expected = []
      clauses.each_with_index do |c, i|
        expected << { 'or' => 'or' } if i > 0
        expected << { '(' => '(' } if filter.is_a?(Array)
        c.each_with_index do |(_, st), j|
          expected << { 'and' => 'and' } if j > 0
          expected << { 'statement' => st }
        end
        expected << { ')' => ')' } if filter.is_a?(Array)
      end
      stack = JGrep::Parser.new(FacterDB.generate_filter_str(filter)).execution_stack
      stack == expected ? clauses : nil
    rescue StandardError
      nil
    end

    # pick is the indexes of the fact sets some clause holds for. As
    # JGrep, every statement is tested, and a fact set whose test raises
    # is left out, with JGrep's message (JGrep rescues Exception; an
    # interrupt is let through here). Each statement's answer over all
    # fact sets is a bit mask (bit i for file i), kept for the run: the
    # queries of one suite share most statements (the facterversion and
    # hardwaremodel of every operating system), so a query is a few
    # integer operations, not a pass over every fact set.
    def self.pick(files, clauses)
      facts = clauses.flatten(1).map(&:first).uniq
      values = values(files, facts)
      hold = 0
      failed = 0
      clauses.each do |c|
        all = (1 << files.size) - 1
        c.each do |fact, st|
          yes, raised = statement(values, fact, st)
          all &= yes
          failed |= raised
        end
        hold |= all
      end
      hold &= ~failed
      puts 'One or more the json documents could not be parsed. Run jgrep -v for to display documents' if failed != 0
      (0...files.size).select { |i| hold[i] == 1 }
    end

    # statement is two bit masks over the fact sets: those the statement
    # holds for, and those whose test raised. JGrep tests each distinct
    # value of the fact once, on that fact alone.
    def self.statement(values, fact, st)
      (@statements ||= {})[[fact, st]] ||= begin
        yes = 0
        raised = 0
        groups(values, fact).each do |v, mask|
          r = begin
            JGrep.has_object?({ fact => v }, st)
          rescue StandardError => e
            e
          end
          if r.is_a?(Exception)
            raised |= mask
          elsif r
            yes |= mask
          end
        end
        [yes, raised]
      end
    end

    # groups are the fact's distinct values, each with the bit mask of the
    # fact sets that hold it.
    def self.groups(values, fact)
      (@groups ||= {})[fact] ||= begin
        g = Hash.new(0)
        values[fact].each_with_index { |v, i| g[v] |= 1 << i }
        g
      end
    end

    # values are, per fact, its value in each file, from the service
    # (which reads each file once), kept for the run.
    def self.values(files, facts)
      @values ||= {}
      missing = facts.reject { |f| @values.key?(f) }
      unless missing.empty?
        resp = MarionetteRspec.client.request('op' => 'factsets', 'files' => files, 'keys' => missing)
        raise Client::Fallback, resp.dig('error', 'message').to_s unless resp['ok'] && resp['values'].size == files.size
        missing.each_with_index { |f, j| @values[f] = resp['values'].map { |row| row[j] } }
      end
      @values
    end

    # fact_files is FacterDB's list of fact-set files, made once as FacterDB
    # makes its database once.
    def self.fact_files
      @fact_files ||= FacterDB.facterdb_fact_files
    end

    # prefetch has the service read FacterDB's files while Ruby loads the
    # spec files, before their first query (rspec-puppet-facts' first
    # `on_supported_os`): reading 1,700 files is about 0.3 s the first
    # query otherwise waits for. The answer (no facts asked) is dropped;
    # the service keeps what it read, so a query's answer is the same.
    # Only for a suite whose spec files query FacterDB (wanted?): for the
    # others the reading would be CPU spent for nothing.
    def self.prefetch(dir = Dir.pwd)
      return false unless MarionetteRspec.enabled? && usable? && !FacterDB.inject_source? && wanted?(dir)
      MarionetteRspec.client.prefetch('op' => 'factsets', 'files' => fact_files, 'keys' => [])
    rescue StandardError
      false
    end

    # wanted? says whether a spec file of the module in dir (the
    # directories rspec-puppet's example groups are named after) calls
    # rspec-puppet-facts' on_supported_os or FacterDB.
    def self.wanted?(dir)
      pattern = File.join(dir, 'spec', '{classes,defines,functions,hosts,type_aliases,types,unit,applications}',
                          '**', '*_spec.rb')
      Dir.glob(pattern).any? do |f|
        text = File.read(f) rescue '' # rubocop:disable Style/RescueModifier
        text.include?('on_supported_os') || text.include?('FacterDB')
      end
    end
  end

  module FacterDBQuery
    def get_facts(filter = nil, cache = true)
      if cache && filter && filter == Thread.current[:facterdb_last_filter_seen]
        return Thread.current[:facterdb_last_facts_seen]
      end
      result = MarionetteRspec::FactSets.get(filter)
      return super if result.nil?
      if cache
        Thread.current[:facterdb_last_filter_seen] = filter
        Thread.current[:facterdb_last_facts_seen] = result
      end
      result
    end
  end

  # OsFacts makes a repeated rspec-puppet-facts `on_supported_os` cheap.
  # rspec-puppet-facts (2.0) keeps each answer in FACTS_CACHE, keyed by
  # the options (defaults filled in), its custom facts, SPEC_FACTS_OS and
  # SPEC_FACTS_STRICT, and hands out Marshal.load(Marshal.dump(answer)) on
  # every call: a suite whose `let(:facts)` calls it gets every operating
  # system's fact set copied every example (6 ms with fifteen systems).
  # Here the answer's Marshal form is kept and loaded again, so a call
  # still returns a fresh deep copy of FACTS_CACHE's answer, only without
  # dumping it again. The form is made again whenever the answer may have
  # changed: another answer object under the key, any FacterDB query
  # (rspec-puppet-facts' own runs merge their facts into the hashes
  # FacterDB hands out, which earlier answers may hold), a change to its
  # common facts (whose values every answer holds). Where the suite itself
  # could hold a part of an answer (a custom fact given as a proc is
  # handed each fact set; a FacterDB query made outside rspec-puppet-facts
  # gets the hashes FacterDB handed it), each call also compares the
  # answer with the copy made with the form (eql?), which catches a change
  # made through any reference. What is left: a suite changing
  # FACTS_CACHE's answers in place by hand. A first call (no answer yet)
  # is rspec-puppet-facts' own.
  module OsFacts
    def self.usable?
      return @usable unless @usable.nil?
      begin
        require 'rspec-puppet-facts/version'
      rescue LoadError
        return @usable = false
      end
      @usable = defined?(::RspecPuppetFacts::Version::STRING) &&
                ::RspecPuppetFacts::Version::STRING.start_with?('2.0.') &&
                defined?(::RspecPuppetFacts::FACTS_CACHE) &&
                ::RspecPuppetFacts.method_defined?(:on_supported_os_implementation) ? true : false
    end

    # changed forgets every kept form.
    def self.changed!
      @forms = nil
    end

    # leaked notes a FacterDB query from outside rspec-puppet-facts: from
    # then on every answer is compared with its copy.
    def self.leaked!
      @leaked = true
    end

    # copy is a deep copy of answer, FACTS_CACHE[key], as Marshal makes it.
    def self.copy(key, answer)
      form = (@forms ||= {})[key]
      common = ::RspecPuppetFacts.instance_variable_get(:@common_facts)
      if form && form[0].equal?(answer) && form[3].equal?(common) && common.eql?(form[4]) &&
         (!compare? || answer.eql?(form[2]))
        return Marshal.load(form[1])
      end
      dump = Marshal.dump(answer)
      @forms[key] = [answer, dump, Marshal.load(dump), common, Marshal.load(Marshal.dump(common))]
      Marshal.load(dump)
    end

    def self.compare?
      @leaked || (::RspecPuppetFacts.custom_facts || {}).each_value.any? { |f| !f.is_a?(Hash) || f[:value].respond_to?(:call) }
    end

    # Installed into RspecPuppetFacts (the module a spec helper includes).
    module Call
      def on_supported_os(opts = {})
        return super unless MarionetteRspec.enabled? && MarionetteRspec::OsFacts.usable? && opts.instance_of?(Hash)
        # The defaults and the key, as rspec-puppet-facts fills and makes
        # them (super, called below for a new answer, fills nothing more).
        opts[:hardwaremodels] ||= ['x86_64']
        opts[:hardwaremodels] = [opts[:hardwaremodels]] unless opts[:hardwaremodels].is_a?(Array)
        opts[:supported_os] ||= ::RspecPuppetFacts.meta_supported_os
        opts[:facterversion] ||= RSpec.configuration.default_facter_version
        key = [opts.to_s, ::RspecPuppetFacts.custom_facts.to_s, ::RspecPuppetFacts.spec_facts_os_filter,
               ::RspecPuppetFacts.spec_facts_strict?]
        answer = ::RspecPuppetFacts::FACTS_CACHE[key]
        return super if answer.nil?
        MarionetteRspec::OsFacts.copy(key, answer)
      end

      def on_supported_os_implementation(*args, **kwargs, &block)
        MarionetteRspec::OsFacts.changed!
        depth = Thread.current[:marionette_os_facts]
        Thread.current[:marionette_os_facts] = true
        super
      ensure
        Thread.current[:marionette_os_facts] = depth
      end
    end

    # Installed into FacterDB's singleton class.
    module Query
      def get_facts(*args, **kwargs, &block)
        MarionetteRspec::OsFacts.changed!
        MarionetteRspec::OsFacts.leaked! unless Thread.current[:marionette_os_facts]
        super
      end
    end

    # install puts Call into RspecPuppetFacts once it is loaded (spec
    # helpers load it after the adapter; Ruby 3 hands a module prepended
    # later to what already includes it).
    def self.install
      return if @installed || !defined?(::RspecPuppetFacts)
      @installed = true
      ::RspecPuppetFacts.prepend(Call)
    end
  end

  # CoverageFilters makes rspec-puppet's coverage bookkeeping after each
  # build (Coverage#add_from_catalog) linear: for every resource of the
  # catalog it asks whether the resource is filtered out, a search of the
  # list of filters, which grows by one every build (each example's
  # subject is added again), and joins the module's manifest paths anew.
  # While one add_from_catalog runs neither the filters nor the adapter's
  # module path change (nothing it calls changes them), so the filters are
  # put in a set once (strings only: a string is in the list by == exactly
  # when it is in the set by eql?) and the paths joined once. Outside it,
  # or with filters other than strings, all is rspec-puppet's own.
  module CoverageFilters
    def add_from_catalog(catalog, test_module)
      return super unless MarionetteRspec.enabled? && @filters.is_a?(Array) && @filters.all? { |f| f.instance_of?(String) }
      outer = Thread.current[:marionette_coverage]
      Thread.current[:marionette_coverage] = { set: @filters.to_set, paths: {} }
      begin
        super
      ensure
        Thread.current[:marionette_coverage] = outer
      end
    end

    def filtered?(resource)
      memo = Thread.current[:marionette_coverage]
      return super unless memo
      name = resource.to_s
      return super unless name.instance_of?(String)
      return true if memo[:set].include?(name)
      return true if filters_regex.any? { |f| name =~ f }
      false
    end

    def module_paths(test_module)
      memo = Thread.current[:marionette_coverage]
      return super unless memo
      memo[:paths].key?(test_module) ? memo[:paths][test_module] : (memo[:paths][test_module] = super)
    end
  end

  # CatalogCache spares rspec-puppet's catalog cache (RSpec::Puppet::Cache,
  # 2.9) its deep copy of each build's arguments: it looks the arguments up
  # by a Marshal copy of them, made on every build (the example's facts
  # among them: 0.6 ms). For arguments of plain data (hashes, arrays,
  # strings, symbols, numbers, true, false, nil, no subclasses, no default
  # procs or identity hashes, no NaN) the copy is eql? to them, with the
  # same hash, so the arguments themselves find what the copy would. The
  # copy also stood for the arguments as they were before the build: if a
  # build changed them, rspec-puppet's lookup after it finds nothing
  # (nil), and so does this (their hash is taken before and after).
  # Anything else is rspec-puppet's own.
  module CatalogCache
    def get(*args, &blk)
      unless MarionetteRspec.enabled? && @cache.is_a?(Hash) && @lra.is_a?(Array) &&
             self.class.const_defined?(:MAX_ENTRIES) && MarionetteRspec::CatalogCache.plain?(args)
        return super
      end
      if @cache.key?(args)
        @lra.push(@lra.delete_at(@lra.index(args)))
        return @cache[args]
      end
      before = args.hash
      @cache.delete(@lra.shift) if @cache.size == self.class::MAX_ENTRIES
      @cache[args] = (blk || @default_proc).call(*args)
      @lra << args
      args.hash == before ? @cache[args] : nil
    end

    def self.plain?(v, depth = 0)
      return false if depth > 64
      case v
      when String then v.instance_of?(String)
      when Symbol, Integer, true, false, nil then true
      when Float then !v.nan?
      when Array then v.instance_of?(Array) && v.all? { |e| plain?(e, depth + 1) }
      when Hash
        v.instance_of?(Hash) && !v.compare_by_identity? && v.default_proc.nil? &&
          v.all? { |k, e| plain?(k, depth + 1) && plain?(e, depth + 1) }
      else false
      end
    end
  end

  # CatalogBuild replaces rspec-puppet's catalog build: the one seam every
  # class, define, host and type alias example goes through.
  module CatalogBuild
    def build_catalog_without_cache_v2(nodename: nil, facts_val: nil, trusted_facts_val: nil, hiera_config_val: nil,
                                       code: nil, exported: nil, node_params: nil, trusted_external_data: nil,
                                       ignored_cache_params: {})
      args = { nodename: nodename, facts_val: facts_val, trusted_facts_val: trusted_facts_val,
               hiera_config_val: hiera_config_val, code: code, exported: exported, node_params: node_params,
               trusted_external_data: trusted_external_data, ignored_cache_params: ignored_cache_params }
      MarionetteRspec.timed_build do
        next super(**args) unless MarionetteRspec.enabled?

        req = MarionetteRspec.settings(adapter).merge(
          'op' => 'compile',
          'node' => nodename,
          'code' => code,
          'facts' => MarionetteRspec.plain_facts(facts_val),
          'node_params' => MarionetteRspec.plain((node_params || {}).merge('environment' => adapter.current_environment.name.to_s)),
          'trusted' => { 'extensions' => MarionetteRspec.plain(trusted_facts_val || {}),
                         'external' => MarionetteRspec.plain(trusted_external_data || {}) },
          'keep_exported' => !!exported,
        )
        if hiera_config_val && File.file?(hiera_config_val.to_s)
          req['hiera_config'] = hiera_config_val.to_s
        end
        resp = MarionetteRspec.client.request(req)
        MarionetteRspec.raise_error(resp) unless resp['ok']
        MarionetteRspec.stub_facts(self, facts_val)
        catalog = MarionetteRspec.catalog_from(resp['catalog'])
        MarionetteRspec.resolve_deferred(adapter, nodename, facts_val, catalog)
        # As rspec-puppet's own exported build: the exported resources only.
        catalog = catalog.filter { |r| !r.exported? } if exported
        catalog
      rescue MarionetteRspec::Client::Fallback
        super(**args)
      end
    end
  end

  # log_line appends a line to MARIONETTE_RSPEC_LOG, kept open for the run.
  def self.log_line(line)
    @log_io ||= File.open(ENV['MARIONETTE_RSPEC_LOG'], 'a').tap { |f| f.sync = true }
    @log_io.puts(line)
  end

  # timed_build runs a catalog build (Puppet's or marionette's) and, with
  # MARIONETTE_RSPEC_LOG, logs its wall and CPU time: the compile step
  # scripts/rspec-compare compares.
  def self.timed_build
    return yield unless (log = ENV['MARIONETTE_RSPEC_LOG'])
    wall = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    begin
      yield
    ensure
      wall = (Process.clock_gettime(Process::CLOCK_MONOTONIC) - wall) * 1000
      cpu = (Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - cpu) * 1000
      log_line(format('build %.2fms %.2fms', wall, cpu))
    end
  end

  # Phases measures where a run's time goes, with MARIONETTE_RSPEC_PHASES
  # naming a file: the wall and CPU time (of this Ruby process; the
  # service's own is not in it) of loading Ruby, Puppet and rspec-puppet,
  # of loading the spec files (FacterDB's queries included, also counted
  # apart), of Puppet's and rspec-puppet's setup of each example, of the
  # catalog builds and function calls, and of the examples as a whole. A
  # phase entered again inside itself counts once. Written at exit as one
  # line a phase: NAME WALL_S CPU_S COUNT.
  module Phases
    NAMES = %w[load specs facts setup builds calls examples].freeze

    def self.on?
      !ENV['MARIONETTE_RSPEC_PHASES'].to_s.empty?
    end

    def self.totals
      @totals ||= Hash.new { |h, k| h[k] = [0.0, 0.0, 0] }
    end

    def self.measure(name)
      depth = (@depth ||= Hash.new(0))
      return yield if depth[name] > 0
      depth[name] += 1
      wall = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
      begin
        yield
      ensure
        depth[name] -= 1
        t = totals[name]
        t[0] += Process.clock_gettime(Process::CLOCK_MONOTONIC) - wall
        t[1] += Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - cpu
        t[2] += 1
      end
    end

    # started is the wall clock reading of this process's start (Linux's
    # /proc), or nil.
    def self.started
      ticks = File.read('/proc/self/stat').split(') ').last.split[19].to_f
      uptime = File.read('/proc/uptime').split.first.to_f
      Process.clock_gettime(Process::CLOCK_MONOTONIC) - (uptime - ticks / 100.0)
    rescue StandardError
      nil
    end

    def self.install
      path = ENV['MARIONETTE_RSPEC_PHASES']
      start = started
      wall, cpu = MARIONETTE_RSPEC_LOADED
      totals['load'] = [start ? wall - start : 0.0, cpu, 1]
      wrap(RSpec::Core::Runner, :setup, 'specs')
      wrap(RSpec::Core::Example, :run, 'examples')
      wrap(Puppet::Test::TestHelper.singleton_class, :before_each_test, 'setup')
      wrap(Puppet::Test::TestHelper.singleton_class, :after_each_test, 'setup')
      wrap(RSpec::Puppet::Adapters::Base, :setup_puppet, 'setup') if defined?(RSpec::Puppet::Adapters::Base)
      wrap(RSpec::Puppet::Support, :setup_puppet, 'setup')
      wrap(RSpec::Puppet::Support, :build_catalog_without_cache_v2, 'builds')
      wrap(MarionetteRspec::FunctionWrapper, :execute, 'calls')
      %w[V4FunctionWrapper V3FunctionWrapper].each do |w|
        klass = RSpec::Puppet::FunctionExampleGroup.const_get(w) rescue nil
        wrap(klass, :execute, 'calls') if klass
      end
      wrap(FacterDB.singleton_class, :get_facts, 'facts') if defined?(FacterDB)
      at_exit do
        t = totals
        t['total'] = [start ? Process.clock_gettime(Process::CLOCK_MONOTONIC) - start : 0.0,
                      Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID), 1]
        File.open(path, 'w') do |f|
          (NAMES + ['total']).each { |n| f.puts(format('%s %.3f %.3f %d', n, *t[n])) }
        end
      end
    end

    def self.wrap(target, meth, name)
      return unless target.method_defined?(meth) || target.private_method_defined?(meth)
      target.prepend(Module.new do
        define_method(meth) do |*args, **kwargs, &block|
          MarionetteRspec::Phases.measure(name) { super(*args, **kwargs, &block) }
        end
      end)
    end
  end

  # Function calls an example makes through rspec-puppet's `run` matcher or
  # `subject.execute`, answered by the service; Puppet's own wrapper is
  # built only when marionette cannot answer.
  class FunctionWrapper
    attr_reader :func_name

    def initialize(name, group)
      @func_name = name
      @group = group
    end

    def func
      puppet_wrapper.func
    end

    def execute(*args, &block)
      if block || @group.marionette_puppet_only?
        MarionetteRspec.client.note("call #{@func_name} puppet (#{block ? 'a block' : 'the example mocks'})")
        return puppet_wrapper.execute(*args, &block)
      end
      begin
        begin
          req = @group.marionette_call_request(@func_name, args)
        rescue MarionetteRspec::Client::Fallback => e
          MarionetteRspec.client.note("call #{@func_name} puppet (#{e.message})")
          raise
        end
        resp = MarionetteRspec.client.request(req)
        if resp['ok']
          @group.marionette_called(req)
          return JSON.parse("[#{JSON.generate(resp['result'])}]").first
        end
        err = resp['error'] || {}
        raise MarionetteRspec::Client::Fallback, err['message'] if err['unsupported']
        raise MarionetteRspec.function_error(err)
      rescue MarionetteRspec::Client::Fallback
        @group.marionette_puppet_only!
        puppet_wrapper.execute(*args)
      end
    end

    def call(_scope, *args)
      execute(*args)
    end

    private

    def puppet_wrapper
      @puppet_wrapper ||= @group.marionette_puppet_function(@func_name)
    end
  end

  # FunctionLookup replaces rspec-puppet's function lookup for function
  # example groups.
  module FunctionLookup
    def find_function(function_name = self.class.top_level_description)
      return super unless MarionetteRspec.functions_enabled?
      FunctionWrapper.new(function_name, self)
    end

    def marionette_puppet_function(name)
      method(:find_function).super_method.call(name)
    end

    def marionette_call_request(name, args)
      node_name = nodename(:function)
      MarionetteRspec.settings(adapter).merge(
        'op' => 'call',
        'node' => node_name,
        'code' => pre_cond.to_s,
        'facts' => MarionetteRspec.plain_facts(facts_hash(node_name)),
        'trusted' => { 'extensions' => MarionetteRspec.plain(trusted_facts_hash(node_name)) },
        'calls' => marionette_calls.dup,
        'function' => name,
        'args' => MarionetteRspec.call_args(args),
      )
    end

    # The example's calls marionette answered, made again before each
    # later call and for the catalogue, which holds what they declared.
    def marionette_calls
      @marionette_calls ||= []
    end

    def marionette_called(req)
      marionette_calls << { 'function' => req['function'], 'args' => req['args'] }
      @marionette_catalogue = nil
    end

    # An example stays with Puppet once a call of it went there (the
    # compiler Puppet's calls declare resources in is Puppet's), or when it
    # stubs or mocks Ruby objects: its doubles stand in for Puppet's own
    # Ruby (File.exist?, Time.now, the scope), which marionette does not
    # run.
    def marionette_puppet_only?
      @marionette_puppet_only ||= MarionetteRspec.mocking?
    end

    def marionette_puppet_only!
      @marionette_puppet_only = true
    end

    # catalogue is the catalog the example's calls built: marionette's when
    # marionette answered them, else Puppet's compiler's.
    def catalogue
      return super if marionette_calls.empty? || @marionette_puppet_only
      @marionette_catalogue ||= begin
        node_name = nodename(:function)
        req = MarionetteRspec.settings(adapter).merge(
          'op' => 'compile',
          'node' => node_name,
          'code' => pre_cond.to_s,
          'facts' => MarionetteRspec.plain_facts(facts_hash(node_name)),
          'trusted' => { 'extensions' => MarionetteRspec.plain(trusted_facts_hash(node_name)) },
          'calls' => marionette_calls,
        )
        resp = MarionetteRspec.client.request(req)
        MarionetteRspec.raise_error(resp) unless resp['ok']
        MarionetteRspec.catalog_from(resp['catalog'])
      end
    end
  end
end

begin
  require 'facterdb'
  require 'facterdb/version'
  FacterDB.singleton_class.prepend(MarionetteRspec::FacterDBQuery)
  FacterDB.singleton_class.prepend(MarionetteRspec::OsFacts::Query)
  MarionetteRspec::FactSets.prefetch
rescue LoadError
  # No FacterDB: nothing to answer.
end
RSpec::Puppet::Support.prepend(MarionetteRspec::CatalogBuild)
Puppet::Resource.singleton_class.prepend(MarionetteRspec::BareTypes)
Puppet::Confine.singleton_class.prepend(MarionetteRspec::ConfineTest) if defined?(Puppet::Confine)
if defined?(Puppet::FacterImpl)
  Puppet::FacterImpl.prepend(MarionetteRspec::FactSearch)
  Puppet::FacterImpl.singleton_class.prepend(MarionetteRspec::SharedFacter)
end
RSpec::Puppet::Support.prepend(MarionetteRspec::InSetupPuppet)
Dir.singleton_class.prepend(MarionetteRspec::ModuleLibsGlob)
Dir.singleton_class.prepend(MarionetteRspec::VardirInMemory)
if defined?(RSpec::Puppet::Adapters::Adapter40)
  RSpec::Puppet::Adapters::Adapter40.prepend(MarionetteRspec::LazyLoaders)
  Puppet::Pops::Loaders.singleton_class.prepend(MarionetteRspec::LazyLoadersNew)
end
RSpec::Puppet::FunctionExampleGroup.prepend(MarionetteRspec::FunctionLookup)
# Mocha is loaded by the suite's spec_helper, after this file.
RSpec.configure { |c| c.before(:suite) { MarionetteRspec::MochaChecks.install } }
MarionetteRspec::Phases.install if MarionetteRspec::Phases.on?
RSpec::Puppet::Cache.prepend(MarionetteRspec::CatalogCache) if defined?(RSpec::Puppet::Cache)
MarionetteRspec::OsFacts.install
RSpec.configure { |c| c.before(:suite) { MarionetteRspec::OsFacts.install } }
if defined?(Puppet::Pops::Serialization::FromDataConverter)
  Puppet::Pops::Serialization::FromDataConverter.singleton_class.prepend(MarionetteRspec::PlainParameters)
end
RSpec::Puppet::Coverage.prepend(MarionetteRspec::CoverageFilters) if defined?(RSpec::Puppet::Coverage)
Puppet::Resource.prepend(MarionetteRspec::CatalogTags)
