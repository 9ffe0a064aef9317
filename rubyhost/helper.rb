# marionette's Ruby helper process (package rubyhost). It runs module
# Puppet functions that marionette's Ruby subset cannot run, in real Ruby
# with Puppet's library, answering one JSON message per line on stdin and
# stdout. Scope lookups and call_function go back to marionette over the
# same pipe. Values travel as Puppet's rich data (__ptype / __pvalue).

require 'json'

PROTO_OUT = $stdout.dup
PROTO_OUT.binmode
PROTO_OUT.sync = true
# Whatever a function prints must not corrupt the protocol.
$stdout.reopen($stderr)
PROTO_IN = $stdin
PROTO_IN.binmode

require 'puppet'

module MarionetteHost
  class Failure < StandardError; end

  def self.send_msg(msg)
    PROTO_OUT.write(JSON.generate(msg, max_nesting: 1024))
    PROTO_OUT.write("\n")
  end

  def self.read_msg
    line = PROTO_IN.gets
    exit(0) if line.nil?
    JSON.parse(line.force_encoding('UTF-8'), max_nesting: 1024)
  end

  def self.utf8(s)
    s = s.dup.force_encoding('UTF-8')
    s.valid_encoding? ? s : s.scrub("\uFFFD")
  end

  # encode turns a Ruby value into rich data JSON.
  def self.encode(v)
    case v
    when nil, :undef then nil
    when true, false, Integer then v
    when Float
      raise Failure, "cannot return the Float #{v} to marionette" if v.nan? || v.infinite?
      v
    when String then utf8(v)
    when :default then { '__ptype' => 'Default' }
    when Symbol then utf8(v.to_s)
    when Array then v.map { |x| encode(x) }
    when Hash
      if v.keys.all? { |k| k.is_a?(String) && k != '__ptype' }
        v.each_with_object({}) { |(k, x), h| h[utf8(k)] = encode(x) }
      else
        { '__ptype' => 'Hash', '__pvalue' => v.flat_map { |k, x| [encode(k), encode(x)] } }
      end
    when Puppet::Pops::Types::PSensitiveType::Sensitive
      { '__ptype' => 'Sensitive', '__pvalue' => encode(v.unwrap) }
    when Puppet::Pops::Time::Timestamp then { '__ptype' => 'Timestamp', '__pvalue' => v.to_s }
    when Puppet::Pops::Time::Timespan then { '__ptype' => 'Timespan', '__pvalue' => v.nsecs }
    when Puppet::Pops::Types::PBinaryType::Binary then { '__ptype' => 'Binary', '__pvalue' => v.to_s }
    when Regexp then { '__ptype' => 'Regexp', '__pvalue' => utf8(v.source) }
    when Puppet::Pops::Types::PAnyType then { '__ptype' => 'Type', '__pvalue' => v.to_s }
    when Puppet::Resource then { '__ptype' => 'Type', '__pvalue' => v.to_s }
    else
      if v.respond_to?(:_pcore_type) && v._pcore_type.name == 'Deferred'
        { '__ptype' => 'Deferred', 'name' => v.name, 'arguments' => v.arguments.nil? ? nil : encode(v.arguments) }
      else
        raise Failure, "cannot return a #{v.class} to marionette"
      end
    end
  end

  # decode turns rich data JSON into Puppet's Ruby values.
  def self.decode(d)
    case d
    when Array then d.map { |x| decode(x) }
    when Hash
      t = d['__ptype']
      return d.each_with_object({}) { |(k, x), h| h[k] = decode(x) } if t.nil?
      pv = d['__pvalue']
      case t
      when 'Default' then :default
      when 'Hash' then Hash[*pv.map { |x| decode(x) }]
      when 'Sensitive' then Puppet::Pops::Types::PSensitiveType::Sensitive.new(decode(pv))
      when 'Timestamp' then Puppet::Pops::Time::Timestamp.parse(pv)
      when 'Timespan' then pv.is_a?(Integer) ? Puppet::Pops::Time::Timespan.new(pv) : Puppet::Pops::Time::Timespan.parse(pv)
      when 'Binary' then Puppet::Pops::Types::PBinaryType::Binary.from_base64_strict(pv)
      when 'Regexp' then Regexp.new(pv)
      when 'Type' then Puppet::Pops::Types::TypeParser.singleton.parse(pv)
      when 'Deferred'
        args = d['arguments']
        Puppet::Pops::Types::TypeFactory.deferred.create(d['name'], *(args.nil? ? [] : [decode(args)]))
      else raise Failure, "unknown rich data type #{t}"
      end
    else d
    end
  end

  # callback asks marionette and waits for its answer.
  def self.callback(msg)
    send_msg(msg)
    reply = read_msg
    case reply['op']
    when 'reply' then [decode(reply['value']), reply['found']]
    when 'reply_error' then raise Puppet::ParseError, reply['message']
    else raise Failure, "unexpected message #{reply['op']} while waiting for a reply"
    end
  end

  def self.lookupvar(name)
    name = name.to_s
    v, found = callback('op' => 'lookupvar', 'name' => name)
    found ? v : nil
  end

  def self.call_function(name, args)
    callback('op' => 'call_function', 'name' => name.to_s, 'args' => encode(args)).first
  end

  GO_FUNCTIONS = %w[
    create_resources ensure_resource ensure_resources ensure_packages include require contain
    realize tag tagged defined lookup hiera hiera_array hiera_hash hiera_include
    debug info notice warning err alert emerg crit fail template epp inline_template inline_epp file
  ].freeze

  # ruby_local? is true for a 3.x function that Ruby code loaded in the
  # helper has defined itself (a helper function declared beside the one
  # called, like docker::escape): marionette does not know it.
  def self.ruby_local?(name)
    return false if GO_FUNCTIONS.include?(name.to_s)
    env = Puppet.lookup(:current_environment)
    !Puppet::Parser::Functions.environment_module(env).get_function_info(name.to_s.intern).nil?
  end

  # A scope standing for the compile's: variables and functions come from
  # marionette.
  module ScopeBridge
    def lookupvar(name, _options = {})
      MarionetteHost.lookupvar(name)
    end

    def [](name, _options = {})
      MarionetteHost.lookupvar(name)
    end

    def include?(name)
      !MarionetteHost.lookupvar(name).nil?
    end

    def to_hash(_recursive = true, _include_undef = false)
      MarionetteHost.callback('op' => 'variables').first
    end

    # The compile's catalog and resources stay in marionette: a function
    # that reaches for them fails rather than change the helper's empty
    # catalog and return as if it had worked.
    %i[catalog resource findresource compiler_catalog].each do |m|
      define_method(m) do |*_args|
        raise Puppet::ParseError, "the Ruby helper cannot give #{MarionetteHost.current} the compile's #{m == :resource ? 'resource' : 'catalog'} (scope.#{m})"
      end
    end

    def exist?(name)
      _, found = MarionetteHost.callback('op' => 'lookupvar', 'name' => name.to_s)
      found
    end

    def call_function(name, args, &block)
      return super if block || MarionetteHost.ruby_local?(name)
      # Puppet splats args, so a single value stands for itself.
      MarionetteHost.call_function(name, Array(args))
    end

    # 3.x functions calling these act on the compile's catalog, scope or
    # log: they must reach marionette, not the helper's empty catalog.
    GO_FUNCTIONS.each do |fn|
      define_method("function_#{fn}") { |args| MarionetteHost.call_function(fn, args) }
    end
  end

  # Functions call other functions through marionette, so that they see
  # its function table and act on its catalog; a call with a block stays
  # in Ruby.
  module FunctionBridge
    def call_function(name, *args, &block)
      return super if block || MarionetteHost.ruby_local?(name)
      MarionetteHost.call_function(name, args)
    end
  end
  Puppet::Pops::Functions::Function.prepend(FunctionBridge)

  ENVS = {}

  def self.environment(modulepath)
    ENVS[modulepath] ||= begin
      env = Puppet::Node::Environment.create(:marionette, modulepath)
      loaders = Puppet::Pops::Loaders.new(env)
      scope = nil
      Puppet.override(current_environment: env, loaders: loaders) do
        node = Puppet::Node.new('marionette-rubyhost', environment: env)
        scope = Puppet::Parser::Compiler.new(node).topscope
        scope.extend(ScopeBridge)
      end
      [env, loaders, scope]
    end
  end

  CALLS = []

  # current names the function running, for errors.
  def self.current
    CALLS.last || 'the function'
  end

  def self.call(msg)
    CALLS.push(msg['name'].to_s)
    env, loaders, scope = environment(msg['modulepath'] || [])
    args = decode(msg['args'] || [])
    Puppet.override(current_environment: env, loaders: loaders, global_scope: scope) do
      fn = loaders.private_environment_loader.load(:function, msg['name'])
      raise Failure, "Unknown function: '#{msg['name']}'" if fn.nil?
      { 'op' => 'result', 'value' => encode(fn.call(scope, *args)) }
    end
  ensure
    CALLS.pop
  end

  # Log messages of a running function go to the compile's log; others
  # (loading Puppet) to stderr.
  Puppet::Util::Log.newdesttype :marionette do
    def handle(msg)
      if MarionetteHost::CALLS.empty?
        $stderr.puts("#{msg.level}: #{msg}")
      elsif !%i[debug info].include?(msg.level)
        MarionetteHost.send_msg('op' => 'log', 'level' => msg.level.to_s, 'message' => MarionetteHost.utf8(msg.message.to_s))
      end
    end
  end

  def self.serve
    Puppet::Util::Log.close_all
    Puppet::Util::Log.newdestination(:marionette)
    send_msg('op' => 'ready', 'puppet' => Puppet.version, 'ruby' => RUBY_VERSION)
    loop do
      msg = read_msg
      case msg['op']
      when 'call'
        begin
          send_msg(call(msg))
        rescue Exception => e
          raise if e.is_a?(SystemExit) || e.is_a?(Interrupt)
          send_msg('op' => 'error', 'class' => e.class.name, 'message' => utf8(e.message.to_s))
        end
      when 'quit' then exit(0)
      else send_msg('op' => 'error', 'class' => 'RuntimeError', 'message' => "unknown request #{msg['op']}")
      end
    end
  end
end

dir = ENV.fetch('MARIONETTE_RUBYHOST_DIR')
Puppet.initialize_settings(%w[confdir vardir codedir logdir rundir publicdir].flat_map { |s| ["--#{s}", File.join(dir, s)] })
MarionetteHost.serve
