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
#   MARIONETTE_BIN=PATH           the marionette binary (default: on PATH)
#   MARIONETTE_RSPEC_LOG=PATH     appends one line per routed request
#
# An example falls back to Puppet on its own when marionette says it cannot
# answer as Puppet would (Ruby beyond its subset, a result it cannot
# render), when the request holds data JSON cannot carry, or when the
# service is not there.
require 'json'
require 'open3'
require 'rspec-puppet'

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

    private

    def start
      @stdin, @stdout, @wait = Open3.popen2(@bin, 'test-service')
      at_exit { @stdin.close rescue nil }
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
      File.open(@log, 'a') do |f|
        what = req['op'] == 'call' ? "call #{req['function']}" : 'compile'
        verdict = resp['ok'] ? 'ok' : (resp.dig('error', 'unsupported') ? 'unsupported' : 'error')
        f.puts("#{what} #{verdict} #{resp['ms']}ms")
      end
    end
  end

  def self.enabled?
    ENV['MARIONETTE_RSPEC'] != 'off'
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

  # error_for raises a failed compile's error as Puppet raises it.
  def self.raise_error(resp)
    err = resp['error'] || {}
    raise Client::Fallback, err['message'] if err['unsupported']
    raise Puppet::PreformattedError.new(err['message']) if defined?(Puppet::PreformattedError)
    raise Puppet::Error, err['message']
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
      return super(**args) unless MarionetteRspec.enabled?
      begin
        req = MarionetteRspec.settings(adapter).merge(
          'op' => 'compile',
          'node' => nodename,
          'code' => code,
          'facts' => MarionetteRspec.plain(facts_val),
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
        stub_facts!(facts_val)
        catalog = Puppet::Resource::Catalog.from_data_hash(resp['catalog'])
        # As rspec-puppet's own exported build: the exported resources only.
        catalog = catalog.filter { |r| !r.exported? } if exported
        catalog
      rescue MarionetteRspec::Client::Fallback
        super(**args)
      end
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
      return puppet_wrapper.execute(*args, &block) if block
      begin
        resp = MarionetteRspec.client.request(@group.marionette_call_request(@func_name, args))
        return JSON.parse("[#{JSON.generate(resp['result'])}]").first if resp['ok']
        err = resp['error'] || {}
        raise MarionetteRspec::Client::Fallback, err['message'] if err['unsupported']
        raise ArgumentError, err['detail'] if err['detail'].to_s =~ /\A'[\w:]+' (?:parameter|expects|block)/
        raise Puppet::ParseError, err['detail']
      rescue MarionetteRspec::Client::Fallback
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
        'facts' => MarionetteRspec.plain(facts_hash(node_name)),
        'trusted' => { 'extensions' => MarionetteRspec.plain(trusted_facts_hash(node_name)) },
        'function' => name,
        'args' => MarionetteRspec.plain(args),
      )
    end
  end
end

RSpec::Puppet::Support.prepend(MarionetteRspec::CatalogBuild)
RSpec::Puppet::FunctionExampleGroup.prepend(MarionetteRspec::FunctionLookup)
