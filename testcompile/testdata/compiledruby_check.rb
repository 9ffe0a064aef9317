# Loads Ruby files (from ARGV[0], a directory) with the adapter loaded, as
# TestCompiledRuby runs it: twice with the same cache, after a file
# changed, with the files under Ruby's temporary directory, and with the
# adapter off; loaded.rb is loaded twice. Prints what the files define
# (their __FILE__, __dir__ and lines as Ruby sees them), what a file that
# does not compile raises, and how many loads came from the cache.
dir = ARGV.fetch(0)
$from_cache = 0
if defined?(MarionetteRspec::CompiledRuby)
  # A file of the directory the cache answered without compiling it.
  RubyVM::InstructionSequence.singleton_class.prepend(Module.new do
    def load_from_binary(*args)
      r = super
      $from_cache += 1 if r.path.start_with?(ENV['CHECK_DIR'].to_s)
      r
    end
  end)
end
require File.join(dir, 'thing.rb')
load File.join(dir, 'loaded.rb')
load File.join(dir, 'loaded.rb') # again, as Puppet loads a 3.x function in every example
broken = begin
  require File.join(dir, 'broken.rb')
  'no error'
rescue SyntaxError => e
  "#{e.class}: #{e.message.lines.first.strip.sub(dir, 'DIR')}"
end
puts "thing: #{Thing.describe.map { |x| x.to_s.sub(dir, 'DIR') }.join(' ')}"
puts "loaded: #{$loaded_value}"
puts "broken: #{broken}"
puts "from cache: #{$from_cache}"
