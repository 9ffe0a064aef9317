# Runs a Puppet function file under real Ruby with a tiny stub of Puppet's
# function APIs, for differential tests of erb.RubyFunction.
# Usage: ruby run-function.rb FILE ARGS.json
#
# ARGS.json is a JSON array of arguments (null is undef). The calling scope
# has the variables in VARS and the functions double (Integer * 2) and echo.
# Prints {"result": r} or {"error": message, "class": name} as JSON, with
# hashes as arrays of [key, value] pairs so that order is kept.
require 'json'

# Function files may require Puppet's own libraries, which the stub replaces.
def require(name)
  name.to_s.start_with?('puppet') ? false : super
end

VARS = { 'greeting' => 'hello', 'count' => 3, 'list' => %w[a b] }.freeze

def stub_function(name, args)
  case name
  when 'double'
    raise Puppet::ParseError, 'double(): expects an Integer' unless args.size == 1 && args[0].is_a?(Integer)
    args[0] * 2
  when 'echo'
    args
  else
    raise Puppet::ParseError, "unknown function #{name}"
  end
end

module Puppet
  class Error < RuntimeError; end
  class ParseError < Error; end

  # The 4.x API: a class per function; dispatch blocks only name methods.
  module Functions
    class Dispatch
      def method_missing(*) end

      def respond_to_missing?(*)
        true
      end
    end

    class Base
      class << self
        attr_accessor :dispatches
      end

      def self.dispatch(meth, &block)
        (self.dispatches ||= []) << meth
        Dispatch.new.instance_eval(&block) if block
      end

      def call_function(name, *args)
        stub_function(name.to_s, args)
      end
    end

    def self.create_function(name, &block)
      klass = Class.new(Base)
      klass.class_eval(&block)
      $function = [4, name.to_s, klass]
    end
  end

  # The 3.x API: the block becomes a method of the scope.
  module Parser
    module Functions
      def self.newfunction(name, opts = {}, &block)
        $function = [3, name.to_s, opts, block]
      end
    end
  end
end

class StubScope
  def lookupvar(name)
    VARS[name.sub(/\A::/, '')]
  end

  def method_missing(name, *args)
    return stub_function(Regexp.last_match(1), args[0]) if name.to_s =~ /\Afunction_(.*)\z/

    super
  end

  def respond_to_missing?(name, priv = false)
    name.to_s.start_with?('function_') || super
  end
end

def plural(n, s)
  n == 1 ? "1 #{s}" : "#{n} #{s}s"
end

def call(args)
  if $function[0] == 4
    _, name, klass = $function
    meth = (klass.dispatches || [name.split(':').last]).first
    params = klass.instance_method(meth).parameters
    lo = params.count { |k, _| k == :req }
    hi = params.any? { |k, _| k == :rest } ? nil : params.count { |k, _| %i[req opt].include?(k) }
    if args.size < lo || (hi && args.size > hi)
      want = if hi.nil? then "at least #{plural(lo, 'argument')}"
             elsif lo == hi then plural(lo, 'argument')
             else "between #{lo} and #{hi} arguments"
             end
      raise ArgumentError, "'#{name}' expects #{want}, got #{args.size}"
    end
    klass.new.send(meth, *args)
  else
    _, name, opts, block = $function
    arity = opts[:arity]
    if arity && arity >= 0 && args.size != arity
      raise ArgumentError, "#{name}(): Wrong number of arguments given (#{args.size} for #{arity})"
    end
    if arity && arity.negative? && args.size < -arity - 1
      raise ArgumentError, "#{name}(): Wrong number of arguments given (#{args.size} for minimum #{-arity - 1})"
    end
    StubScope.send(:define_method, :__function, &block)
    r = StubScope.new.__function(args.map { |a| a.nil? ? '' : a })
    opts[:type] == :rvalue ? r : nil
  end
end

def plain(v)
  case v
  when Hash then v.map { |k, x| [plain(k), plain(x)] }
  when Array then v.map { |x| plain(x) }
  when :undef then nil
  when Symbol then v.to_s
  else v
  end
end

load ARGV[0]
begin
  puts JSON.generate({ 'result' => plain(call(JSON.parse(ARGV[1]))) })
rescue StandardError => e
  puts JSON.generate({ 'error' => e.message, 'class' => e.class.name })
end
