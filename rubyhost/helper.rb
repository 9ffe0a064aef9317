# marionette's Ruby helper (package rubyhost). It runs module Puppet
# functions that marionette's Ruby subset cannot run, in real Ruby with
# Puppet's library.
#
# The process started is a listener: it loads Puppet once, listens on the
# unix socket MARIONETTE_RUBYHOST_SOCKET and forks one child per
# connection. A connection is one compile's session: the child answers one
# JSON message per line, and scope lookups, variable assignments and
# call_function go back to marionette over the same connection. A child
# starts from the listener's state, which holds Puppet and nothing of any
# compile: no module code, no facts, no variables. So code is always read
# from disk as it is now, and nothing of one compile reaches another.
#
# The listener exits when its stdin ends (a private helper: its owner went
# away) or, with MARIONETTE_RUBYHOST_IDLE seconds > 0, after that long
# without a session (the helper shared by a user's marionette processes).

require 'json'
require 'socket'
require 'tmpdir'

$stdout.reopen($stderr) # whatever Puppet or a function prints stays off the protocol

require 'puppet'

module MarionetteHost
  class Failure < StandardError; end

  # Runtime values handed to marionette, by id, for this session: a later
  # call in the same session gets the object itself back.
  RUNTIME = []

  class << self
    attr_accessor :conn
  end

  def self.send_msg(msg)
    conn.write(JSON.generate(msg, max_nesting: 1024) << "\n")
  end

  def self.read_msg
    line = conn.gets
    exit!(0) if line.nil?
    JSON.parse(line.force_encoding('UTF-8'), max_nesting: 1024)
  end

  def self.utf8(s)
    s = s.dup.force_encoding('UTF-8')
    s.valid_encoding? ? s : s.scrub("\uFFFD")
  end

  # runtime hands an object without a Puppet data form to marionette as
  # a Runtime value, as Puppet's evaluator holds any Ruby object.
  def self.runtime(v)
    text = begin
      v.to_s
    rescue StandardError
      "#<#{v.class}>"
    end
    RUNTIME << v
    { '__ptype' => 'Runtime', '__pvalue' => { 'id' => RUNTIME.size - 1, 'class' => utf8(v.class.name.to_s), 'text' => utf8(text.to_s) } }
  end

  # encode turns a Ruby value into rich data JSON.
  def self.encode(v, depth = 0)
    raise Failure, 'value nested too deeply to return to marionette' if depth > 512

    case v
    when nil, :undef then nil
    when true, false, Integer then v
    when Float
      raise Failure, "cannot return the Float #{v} to marionette" if v.nan? || v.infinite?

      v
    when String then utf8(v)
    when :default then { '__ptype' => 'Default' }
    when Symbol then utf8(v.to_s)
    when Array then v.map { |x| encode(x, depth + 1) }
    when Hash
      if v.keys.all? { |k| k.is_a?(String) && k != '__ptype' }
        v.each_with_object({}) { |(k, x), h| h[utf8(k)] = encode(x, depth + 1) }
      else
        { '__ptype' => 'Hash', '__pvalue' => v.flat_map { |k, x| [encode(k, depth + 1), encode(x, depth + 1)] } }
      end
    when Puppet::Pops::Types::PSensitiveType::Sensitive
      { '__ptype' => 'Sensitive', '__pvalue' => encode(v.unwrap, depth + 1) }
    when Puppet::Pops::Time::Timestamp then { '__ptype' => 'Timestamp', '__pvalue' => v.to_s }
    when Puppet::Pops::Time::Timespan then { '__ptype' => 'Timespan', '__pvalue' => v.nsecs }
    when Puppet::Pops::Types::PBinaryType::Binary then { '__ptype' => 'Binary', '__pvalue' => v.to_s }
    when Regexp then { '__ptype' => 'Regexp', '__pvalue' => utf8(v.source) }
    when Puppet::Pops::Types::PAnyType then { '__ptype' => 'Type', '__pvalue' => v.to_s }
    when Puppet::Resource then { '__ptype' => 'Type', '__pvalue' => v.to_s }
    when LookupContextBridge then { '__ptype' => 'LookupContext' }
    else
      if v.respond_to?(:_pcore_type) && v._pcore_type.name == 'Deferred'
        { '__ptype' => 'Deferred', 'name' => v.name, 'arguments' => v.arguments.nil? ? nil : encode(v.arguments, depth + 1) }
      else
        runtime(v)
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
      when 'LookupContext' then LookupContextBridge.new
      when 'Runtime'
        id = pv['id']
        raise Failure, "a #{pv['class']} from another Ruby helper session cannot come back to Ruby" unless id.is_a?(Integer) && id >= 0 && id < RUNTIME.size

        RUNTIME[id]
      when 'Deferred'
        args = d['arguments']
        Puppet::Pops::Types::TypeFactory.deferred.create(d['name'], *(args.nil? ? [] : [decode(args)]))
      else raise Failure, "unknown rich data type #{t}"
      end
    else d
    end
  end

  # callback asks marionette and waits for its answer. While it waits,
  # marionette may call another function in this session (a function
  # beyond the subset that the asked one calls): that call runs here, on
  # this stack, and the wait goes on.
  def self.callback(msg)
    send_msg(msg)
    loop do
      reply = read_msg
      case reply['op']
      when 'reply' then return [decode(reply['value']), reply['found']]
      when 'reply_error' then raise Puppet::ParseError, reply['message']
      when 'call', 'template' then answer_call(reply)
      else raise Failure, "unexpected message #{reply['op']} while waiting for a reply"
      end
    end
  end

  def self.lookupvar(name)
    name = name.to_s
    v, found = callback('op' => 'lookupvar', 'name' => name)
    found ? v : nil
  end

  def self.setvar(name, value, top)
    callback('op' => 'setvar', 'name' => name.to_s, 'value' => encode(value), 'top' => top)
    value
  end

  # top: the call is a 4.x function's own call_function, which Puppet runs
  # in the function's closure scope (top scope), not the caller's.
  def self.call_function(name, args, top = false)
    callback('op' => 'call_function', 'name' => name.to_s, 'args' => encode(args), 'top' => top).first
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

  # A scope standing for one of the compile's: variables and functions
  # come from marionette. The call's scope is the calling one; the
  # compiler's topscope is the compile's top scope.
  module ScopeBridge
    attr_accessor :marionette_top

    def lookupvar(name, _options = {})
      name = "::#{name}" if marionette_top && !name.to_s.start_with?('::')
      MarionetteHost.lookupvar(name)
    end

    def [](name, _options = {})
      lookupvar(name)
    end

    def include?(name)
      !lookupvar(name).nil?
    end

    def exist?(name)
      name = "::#{name}" if marionette_top && !name.to_s.start_with?('::')
      _, found = MarionetteHost.callback('op' => 'lookupvar', 'name' => name.to_s)
      found
    end

    def setvar(name, value, _options = {})
      MarionetteHost.setvar(name, value, marionette_top ? true : false)
    end

    def []=(name, value)
      setvar(name, value)
    end

    def to_hash(_recursive = true, _include_undef = false)
      MarionetteHost.callback('op' => 'variables', 'top' => marionette_top ? true : false).first
    end

    # The compile's catalog is marionette's: a function reads its
    # resources (catalog.resource, findresource) as copies it cannot
    # change; what else it asks of the catalog, or of the scope's
    # resource, fails rather than act on the helper's empty catalog and
    # return as if it had worked.
    def catalog
      CatalogBridge.new
    end

    def findresource(type, title = nil)
      CatalogBridge.new.resource(type, title)
    end

    %i[resource compiler_catalog].each do |m|
      define_method(m) do |*_args|
        raise Puppet::ParseError, "the Ruby helper cannot give #{MarionetteHost.current} the compile's #{m == :resource ? 'resource' : 'catalog'} (scope.#{m})"
      end
    end

    def call_function(name, args, &block)
      return super if block || MarionetteHost.ruby_local?(name)

      # Puppet splats args, so a single value stands for itself.
      MarionetteHost.call_function(name, Array(args))
    end

    # function_NAME calls marionette's function NAME (a 3.x function
    # defined in the helper stays in Ruby), so that it acts on the
    # compile's catalog and sees its function table.
    def method_missing(name, *args, &block)
      fn = name.to_s.delete_prefix('function_')
      return super if fn == name.to_s || block || MarionetteHost.ruby_local?(fn)

      MarionetteHost.call_function(fn, args.first.is_a?(Array) ? args.first : args)
    end

    def respond_to_missing?(name, include_private = false)
      name.to_s.start_with?('function_') || super
    end

    GO_FUNCTIONS.each do |fn|
      define_method("function_#{fn}") { |args| MarionetteHost.call_function(fn, args) }
    end
  end

  # The compile's catalog as a function running in the helper sees it:
  # resource(type, title) gives a copy of a resource's parameters so far,
  # frozen, as changes to it could not reach the compile.
  class CatalogBridge
    def resource(type, title = nil)
      if title.nil?
        if type.is_a?(Puppet::Resource)
          type, title = type.type, type.title
        elsif (m = type.to_s.match(/\A([^\[]+)\[(.*)\]\z/m))
          type, title = m[1], m[2]
        end
      end
      return nil if title.nil?

      params, found = MarionetteHost.callback('op' => 'resource', 'name' => type.to_s, 'title' => title.to_s)
      return nil unless found

      frozen_resource(type, title, params)
    end

    # resources lists the catalog's resources so far, as frozen copies.
    def resources
      list, = MarionetteHost.callback('op' => 'resources')
      list.map { |type, title, params| frozen_resource(type, title, params) }
    end

    def frozen_resource(type, title, params)
      res = Puppet::Resource.new(type, title)
      params.each { |k, v| res[k] = v }
      res.instance_variable_get(:@parameters).freeze
      res.freeze
    end

    def method_missing(name, *_args)
      raise Puppet::ParseError, "the Ruby helper gives #{MarionetteHost.current} only catalog.resource and catalog.resources of the compile's catalog, not catalog.#{name}"
    end

    def respond_to_missing?(_name, _include_private = false)
      false
    end
  end

  # The compiler a function reaches with scope.compiler: its topscope is
  # the compile's top scope; evaluate_classes includes classes there.
  module CompilerBridge
    attr_accessor :marionette_topscope

    def topscope
      marionette_topscope
    end

    def evaluate_classes(classes, _scope = nil, _lazy = true)
      MarionetteHost.call_function('include', Array(classes))
      []
    end
  end

  # Puppet::LookupContext of a custom Hiera backend: marionette keeps the
  # lookup's state (cache, explanation, interpolation), this asks it. It
  # is one of Puppet's, for the functions' parameter types.
  class LookupContextBridge < Puppet::Pops::Lookup::Context
    def self._pcore_type
      Puppet::Pops::Lookup::Context._pcore_type
    end

    def initialize; end # rubocop:disable Lint/MissingSuper

    def ask(method, *args)
      MarionetteHost.callback('op' => 'context', 'name' => method, 'args' => MarionetteHost.encode(args)).first
    end

    def not_found
      throw :no_such_key
    end

    def cache(key, value)
      ask('cache', key, value)
      value
    end

    def cache_all(hash)
      ask('cache_all', hash)
      nil
    end

    def cached_value(key)
      ask('cached_value', key)
    end

    def cache_has_key(key)
      ask('cache_has_key', key)
    end

    def cached_entries(&block)
      entries = ask('cached_entries')
      return entries.each(&block) if block

      entries.each
    end

    def cached_file_data(path)
      content = ask('file_data', path)
      block_given? ? yield(content) : content
    end

    def interpolate(value)
      ask('interpolate', value)
    end

    def explain(&block)
      ask('explain', block.call.to_s) if block
      nil
    end

    def environment_name
      ask('environment_name')
    end

    def module_name
      ask('module_name')
    end
  end

  # Functions call other functions through marionette, so that they see
  # its function table and act on its catalog; a call with a block stays
  # in Ruby.
  module FunctionBridge
    def call_function(name, *args, &block)
      return super if block || MarionetteHost.ruby_local?(name)

      MarionetteHost.call_function(name, args, true)
    end
  end
  Puppet::Pops::Functions::Function.prepend(FunctionBridge)

  ENVS = {}

  def self.environment(modulepath)
    ENVS[modulepath] ||= begin
      env = Puppet::Node::Environment.create(:marionette, modulepath)
      node = Puppet::Node.new('marionette-rubyhost', environment: env)
      compiler = Puppet::Parser::Compiler.new(node)
      top = compiler.topscope
      compiler.extend(CompilerBridge)
      top.extend(ScopeBridge)
      top.marionette_top = true
      compiler.marionette_topscope = top
      scope = compiler.newscope(top)
      scope.extend(ScopeBridge)
      [env, compiler.loaders, scope, top]
    end
  end

  CALLS = []

  # current names the function running, for errors.
  def self.current
    CALLS.last || 'the function'
  end

  # call runs one function; a backend's context.not_found ends it
  # without a value.
  def self.call(msg)
    CALLS.push(msg['name'].to_s)
    env, loaders, scope, top = environment(msg['modulepath'] || [])
    args = decode(msg['args'] || [])
    Puppet.override(current_environment: env, loaders: loaders, global_scope: top) do
      fn = loaders.private_environment_loader.load(:function, msg['name'])
      raise Failure, "Unknown function: '#{msg['name']}'" if fn.nil?

      result = nil
      block = lambda_block(msg['block_params'])
      catch(:no_such_key) do
        result = fn.call(scope, *args, &block)
        return { 'op' => 'result', 'value' => encode(result) }
      end
      { 'op' => 'not_found' }
    end
  ensure
    CALLS.pop
  end

  # template renders an ERB template as Puppet's template() and
  # inline_template() do, with Puppet's own TemplateWrapper over the
  # bridged scope: its instance variables are the calling scope's
  # variables, its scope the compile's. marionette found the file. An
  # exception comes back with the file and line of the backtrace's first
  # frame, which Puppet's template() reports.
  def self.template(msg)
    file = msg['file']
    CALLS.push(file ? "the template #{file}" : 'the inline template')
    env, loaders, scope, top = environment(msg['modulepath'] || [])
    Puppet.override(current_environment: env, loaders: loaders, global_scope: top) do
      wrapper = Puppet::Parser::TemplateWrapper.new(scope)
      wrapper.instance_variable_set(:@__file__, file) if file
      begin
        out = file ? wrapper.result : wrapper.result(msg['source'].to_s)
      rescue StandardError => e
        where = (e.backtrace || []).first.to_s.split(':')
        return { 'op' => 'template_error', 'class' => e.class.name, 'message' => utf8(e.message.to_s), 'file' => utf8(where[0].to_s), 'line' => utf8(where[1].to_s) }
      end
      { 'op' => 'result', 'value' => encode(out.to_s) }
    end
  ensure
    CALLS.pop
  end

  # lambda_block is the call's Puppet lambda as a Ruby block of its
  # arity (Puppet's dispatcher checks it), which runs the lambda in
  # marionette; nil when the call has none.
  def self.lambda_block(n)
    return nil unless n.is_a?(Integer) && n >= 0 && n <= 64

    params = (0...n).map { |i| "a#{i}" }.join(', ')
    eval("proc { |#{params}| MarionetteHost.callback('op' => 'yield', 'args' => MarionetteHost.encode([#{params}])).first }") # rubocop:disable Security/Eval
  end

  def self.answer_call(msg)
    send_msg(msg['op'] == 'template' ? template(msg) : call(msg))
  rescue Exception => e # rubocop:disable Lint/RescueException
    raise if e.is_a?(SystemExit) || e.is_a?(Interrupt)

    send_msg('op' => 'error', 'class' => e.class.name, 'message' => utf8(e.message.to_s))
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

  # session serves one connection in a forked child until it ends.
  def self.session(conn)
    # What a function prints is nobody's to read, and must not fill the
    # shared helper's log: its errors come back as messages.
    $stdout.reopen(File::NULL, 'w')
    $stderr.reopen(File::NULL, 'w')
    conn.binmode
    conn.sync = true
    self.conn = conn
    send_msg('op' => 'ready', 'pid' => Process.pid, 'puppet' => Puppet.version, 'ruby' => RUBY_VERSION)
    loop do
      msg = read_msg
      case msg['op']
      when 'call', 'template' then answer_call(msg)
      when 'quit' then exit!(0)
      else send_msg('op' => 'error', 'class' => 'RuntimeError', 'message' => "unknown request #{msg['op']}")
      end
    end
  end

  # warm runs what every session runs first, once, in the listener:
  # Puppet's lazily loaded parts (the type system, the loaders, the
  # evaluator) are then shared by every fork instead of loaded by each.
  def self.warm
    env = Puppet::Node::Environment.create(:marionette_warm, [])
    compiler = Puppet::Parser::Compiler.new(Puppet::Node.new('marionette-warm', environment: env))
    Puppet.override(current_environment: env, loaders: compiler.loaders) do
      fn = compiler.loaders.private_environment_loader.load(:function, 'type')
      fn.call(compiler.topscope, { 'a' => [1] })
      Puppet::Pops::Types::TypeParser.singleton.parse('Hash[String, Variant[Integer, Sensitive[String]]]')
      Puppet::Parser::TemplateWrapper.new(compiler.topscope).result('<%= [1].map { |x| x } %>')
    end
  rescue StandardError => e
    $stderr.puts("warning: warming the helper: #{e.message}")
  end

  # listen accepts sessions until the owner goes (stdin ends) or, with an
  # idle timeout, until no session has run for that long.
  def self.listen(path, idle)
    begin
      UNIXSocket.new(path).close
      exit(0) # another listener serves this socket
    rescue SystemCallError
      File.unlink(path) if File.socket?(path)
    end
    old = File.umask(0o177)
    server = begin
      UNIXServer.new(path)
    ensure
      File.umask(old)
    end
    ino = File.stat(path).ino
    at_exit { File.unlink(path) if (File.stat(path).ino rescue nil) == ino } # rubocop:disable Style/RescueModifier
    children = 0
    last = Time.now
    watch = idle.positive? ? [server] : [server, $stdin]
    loop do
      begin
        children -= 1 while Process.wait(-1, Process::WNOHANG)
      rescue Errno::ECHILD
        children = 0
      end
      ready, = IO.select(watch, nil, nil, idle.positive? ? [idle / 4.0, 1].max : nil)
      if ready.nil?
        exit(0) if children.zero? && Time.now - last > idle
        next
      end
      if ready.include?($stdin)
        begin
          $stdin.read_nonblock(4096)
        rescue EOFError
          exit(0)
        rescue IO::WaitReadable
          nil
        end
        next unless ready.include?(server)
      end
      conn = begin
        server.accept_nonblock
      rescue IO::WaitReadable, Errno::EINTR
        next
      end
      last = Time.now
      uid, = conn.getpeereid
      if uid != Process.euid
        conn.close
        next
      end
      pid = fork do
        server.close
        Signal.trap('TERM', 'DEFAULT')
        session(conn)
      ensure
        exit!(0) # the listener's exit handlers are not the child's
      end
      children += 1 if pid
      conn.close
    end
  end
end

dir = Dir.mktmpdir('marionette-rubyhost-')
at_exit { FileUtils.rm_rf(dir) if Process.pid == $listener_pid } # rubocop:disable Style/GlobalVars
$listener_pid = Process.pid # rubocop:disable Style/GlobalVars
# Puppet's settings point into that scratch directory, so that the helper
# reads no puppet.conf of the machine's.
Puppet.initialize_settings(%w[confdir vardir codedir logdir rundir publicdir].flat_map { |s| ["--#{s}", File.join(dir, s)] })
Puppet::Util::Log.close_all
Puppet::Util::Log.newdestination(:marionette)
MarionetteHost.warm
MarionetteHost.listen(ENV.fetch('MARIONETTE_RUBYHOST_SOCKET'), ENV.fetch('MARIONETTE_RUBYHOST_IDLE', '0').to_f)
