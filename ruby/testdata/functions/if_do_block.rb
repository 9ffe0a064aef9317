# A call with a do block in an if's condition (as puppet-docker's
# docker_service_flags writes it): the block is the call's.
module Puppet::Parser::Functions
  newfunction(:if_do_block, :type => :rvalue) do |args|
    flags = []
    if args[0].each do |param|
      flags << param
     end
      flags << 'each returned the array'
    end
    flags.join(',')
  end
end
